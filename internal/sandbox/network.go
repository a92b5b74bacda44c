package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/docker/docker/api/types/network"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// HostAddr is the IP address (no port) the orchestrator should listen on so that the
// container reaches it as host.docker.internal: the docker bridge's gateway on a plain
// host, the orchestrator container's own address in sibling mode. It fails with a
// NetworkError (3.E5) when that address is not one this process can listen on.
func (d *Docker) HostAddr(ctx context.Context) (string, error) {
	ip, err := d.hostIP(ctx)
	if err != nil {
		return "", &NetworkError{Err: err}
	}
	if err := canListen(ip); err != nil {
		return "", &NetworkError{Err: fmt.Errorf("%s points to %s, where the orchestrator cannot listen: %w", HostAlias, ip, err)}
	}
	return ip, nil
}

// canListen checks that ip is an address of this machine (or container) and free to
// listen on.
func canListen(ip string) error {
	want := net.ParseIP(ip)
	if want == nil {
		return fmt.Errorf("%q is not an IP address", ip)
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return err
	}
	local := false
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.Equal(want) {
			local = true
			break
		}
	}
	if !local {
		return errors.New("not an address of any network interface here")
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
	if err != nil {
		return err
	}
	return ln.Close()
}

func (d *Docker) hostIP(ctx context.Context) (string, error) {
	switch {
	case d.opts.HostGatewayIP != "":
		return d.opts.HostGatewayIP, nil
	case d.sib != nil && d.sib.ip != "":
		return d.sib.ip, nil
	}
	d.mu.RLock()
	started := d.started && !d.closed
	d.mu.RUnlock()
	if started {
		// What the engine actually wrote for host-gateway.
		hosts, err := d.ReadFile(ctx, "/etc/hosts", 1<<20)
		if err == nil {
			if ip := lookupHosts(hosts, HostAlias); ip != "" {
				return ip, nil
			}
		}
	}
	return d.bridgeGateway(ctx)
}

// bridgeGateway is the default bridge's gateway, where Docker's host-gateway points.
func (d *Docker) bridgeGateway(ctx context.Context) (string, error) {
	n, err := d.api.NetworkInspect(ctx, "bridge", network.InspectOptions{})
	if err != nil {
		return "", fmt.Errorf("inspect the docker bridge network: %w", err)
	}
	for _, c := range n.IPAM.Config {
		if c.Gateway != "" {
			return c.Gateway, nil
		}
	}
	for _, c := range n.IPAM.Config {
		if pfx, err := netip.ParsePrefix(c.Subnet); err == nil && pfx.Addr().Is4() {
			return pfx.Masked().Addr().Next().String(), nil
		}
	}
	return "", errors.New("the docker bridge network has no gateway address")
}

func lookupHosts(hosts []byte, name string) string {
	sc := bufio.NewScanner(bytes.NewReader(hosts))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 || strings.HasPrefix(f[0], "#") {
			continue
		}
		for _, n := range f[1:] {
			if n == name {
				return f[0]
			}
		}
	}
	return ""
}

// VerifyHost checks from inside the container that host.docker.internal:port accepts
// TCP connections; a failure is a NetworkError (3.E5).
func (d *Docker) VerifyHost(ctx context.Context, port int) error {
	res, err := d.Exec(ctx, loop.ExecRequest{
		Command: `exec 3<>/dev/tcp/` + HostAlias + `/` + strconv.Itoa(port),
		Timeout: 5 * time.Second,
		Dir:     "/",
	})
	if err != nil {
		return err
	}
	if res.ExitCode != 0 || res.TimedOut {
		return &NetworkError{Err: fmt.Errorf("the container cannot reach %s:%d: %s", HostAlias, port, strings.TrimSpace(res.Stderr+res.Stdout))}
	}
	return nil
}

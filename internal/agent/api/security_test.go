package api

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/loop/looptest"
)

func TestFetchRefusesEveryNonPublicRange(t *testing.T) {
	t.Parallel()
	for _, a := range []string{
		"127.0.0.1", "10.1.2.3", "172.20.0.1", "192.168.1.1", "169.254.169.254", "0.0.0.0",
		"100.64.0.1", "100.127.255.254", // CGNAT, Tailscale
		"198.18.0.1", "198.19.255.1", "192.0.0.8", "192.0.2.1", "203.0.113.9", "240.0.0.1", "255.255.255.255", "224.0.0.1",
		"::1", "::", "fe80::1", "fd00:ec2::254", "ff02::1",
		"64:ff9b::a9fe:a9fe", "64:ff9b::7f00:1", "64:ff9b:1::1", // NAT64 to metadata and loopback
		"::ffff:127.0.0.1", "::ffff:169.254.169.254", "2002:7f00:1::1", "2001:0:4136:e378::1", "2001:db8::1",
	} {
		err := publicOnly("tcp", net.JoinHostPort(a, "80"), nil)
		assert.True(t, errors.Is(err, errPrivateAddress), "%s must be refused", a)
	}
	for _, a := range []string{"93.184.215.14", "140.82.112.3", "2606:4700::6810:84e5", "100.128.0.1", "198.20.0.1"} {
		assert.NoError(t, publicOnly("tcp", net.JoinHostPort(a, "443"), nil), a)
		assert.True(t, isPublic(netip.MustParseAddr(a)))
	}
}

// write_file stays in the workspace: outside it the sandbox would copy as root.
func TestWriteFileOutsideTheWorkspaceIsRefused(t *testing.T) {
	t.Parallel()
	sb := looptest.NewHostSandbox(t)
	a := &attempt{task: loop.StudentTask{Sandbox: sb}, files: map[string]int{}}
	_, err := a.writeFile(context.Background(), writeFileArgs{Path: "/etc/ld.so.preload", Content: "/workspace/work/x.so\n"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "only under /workspace")
	assert.Empty(t, a.result.Files)
	_, err = a.writeFile(context.Background(), writeFileArgs{Path: "notes.txt", Content: "ok\n"})
	require.NoError(t, err)
	assert.Len(t, a.result.Files, 1)
}

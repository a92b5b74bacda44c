package sandbox

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/docker/docker/api/types/container"
)

// sibling describes the orchestrator's own container when it runs inside one on the
// same engine (a GitHub Docker action with /var/run/docker.sock mounted): the learner is
// then a sibling, bind-mount sources must be host paths, and host.docker.internal must
// point at the orchestrator container.
type sibling struct {
	self    string // the orchestrator's container id
	network string // a network the orchestrator is on; the learner joins it
	ip      string // the orchestrator's address there
	mounts  []container.MountPoint
}

var containerID = regexp.MustCompile(`[0-9a-f]{64}`)

// detectSibling finds the orchestrator's own container, or returns nil when the
// orchestrator does not run in a container of this engine.
func detectSibling(ctx context.Context, api dockerAPI, log *slog.Logger) *sibling {
	if !inContainer() {
		return nil
	}
	host, _ := os.Hostname()
	for _, cand := range selfCandidates(host) {
		info, err := api.ContainerInspect(ctx, cand)
		if err != nil || info.ContainerJSONBase == nil || info.Config == nil {
			continue
		}
		// A container merely named like our host name is not us.
		if cand == host && !strings.HasPrefix(info.ID, host) && info.Config.Hostname != host {
			continue
		}
		if info.Config.Hostname != "" && host != "" && info.Config.Hostname != host {
			continue
		}
		s := &sibling{self: info.ID, mounts: info.Mounts}
		if info.HostConfig != nil && info.HostConfig.NetworkMode.IsHost() {
			// Same network namespace as the host: host-gateway reaches us as is.
		} else if info.NetworkSettings != nil {
			names := make([]string, 0, len(info.NetworkSettings.Networks))
			for n := range info.NetworkSettings.Networks {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				if ep := info.NetworkSettings.Networks[n]; ep != nil && ep.IPAddress != "" {
					s.network, s.ip = n, ep.IPAddress
					break
				}
			}
		}
		sort.Slice(s.mounts, func(i, j int) bool { return len(s.mounts[i].Destination) > len(s.mounts[j].Destination) })
		log.Info("orchestrator runs in a container: the learner is its sibling",
			"self", shortID(info.ID), "network", s.network, "address", s.ip)
		return s
	}
	return nil
}

func inContainer() bool {
	if _, err := os.Stat("/.dockerenv"); err == nil {
		return true
	}
	b, _ := os.ReadFile("/proc/self/cgroup")
	return strings.Contains(string(b), "docker") || strings.Contains(string(b), "containerd")
}

// selfCandidates are the ids this process's container may have: from the files Docker
// bind-mounts into every container (/etc/hostname, hosts, resolv.conf come from
// /var/lib/docker/containers/ID/), from the cgroup path, and the host name.
func selfCandidates(host string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	if b, err := os.ReadFile("/proc/self/mountinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if i := strings.Index(line, "/containers/"); i >= 0 {
				add(containerID.FindString(line[i:]))
			}
		}
	}
	if b, err := os.ReadFile("/proc/self/cgroup"); err == nil {
		for _, m := range containerID.FindAllString(string(b), -1) {
			add(m)
		}
	}
	add(host)
	return out
}

// hostPath translates a path of the orchestrator's container to the engine host's path
// through the mount that covers it.
func (s *sibling) hostPath(local string) (string, bool) {
	p := filepath.Clean(local)
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	for _, m := range s.mounts {
		dst := filepath.Clean(m.Destination)
		if m.Source == "" || dst == "/" {
			continue
		}
		if p == dst {
			return m.Source, true
		}
		if strings.HasPrefix(p, dst+string(filepath.Separator)) {
			return filepath.Join(m.Source, strings.TrimPrefix(p, dst)), true
		}
	}
	return "", false
}

package sandbox

// One learner container: its name, configuration, mounts and hand-over to the
// orchestrator's user.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/mount"
	units "github.com/docker/go-units"

	"github.com/smile-loop/smile-loop/internal/loop"
)

var nameUnsafe = regexp.MustCompile(`[^a-zA-Z0-9_.-]+`)

// create creates and starts one learner container (with the sandbox lock held or from
// a goroutine that owns no shared state).
func (d *Docker) create(ctx context.Context) (id, name string, err error) {
	name = fmt.Sprintf("smile-%s-%d-%s", nameUnsafe.ReplaceAllString(d.opts.RunID, "-"), d.seq.Add(1), randHex(3))
	if len(name) > 120 {
		name = name[:120]
	}
	cfg, hcfg := d.containerConfig()
	resp, err := d.api.ContainerCreate(ctx, cfg, hcfg, nil, nil, name)
	if err != nil {
		return "", "", startErr("create container", d.opts.Image, err)
	}
	fail := func(err error) (string, string, error) {
		d.removeNow(resp.ID)
		return "", "", err
	}
	if err := d.copyIn(ctx, resp.ID); err != nil {
		return fail(err)
	}
	if err := d.api.ContainerStart(ctx, resp.ID, container.StartOptions{}); err != nil {
		return fail(startErr("start container", d.opts.Image, err))
	}
	return resp.ID, name, nil
}

// startErr is a known environment problem, or else Docker's own message (3.E3).
func startErr(op, image string, err error) error {
	if c, known := classifyKnown(op, image, err); known {
		return c
	}
	return &StartError{Image: image, Err: err}
}

func (d *Docker) containerConfig() (*container.Config, *container.HostConfig) {
	mem, _ := units.RAMInBytes(d.opts.Memory)
	init := true
	pids := d.opts.PidsLimit
	cfg := &container.Config{
		Image:      d.opts.Image,
		Entrypoint: []string{"sleep", d.sleepFor()},
		Cmd:        nil,
		WorkingDir: loop.WorkMount,
		Env:        d.env,
		Hostname:   "learner",
		Labels: map[string]string{
			LabelRun:    d.opts.RunID,
			LabelOutput: d.opts.OutputKey,
			LabelRole:   "learner",
		},
	}
	mounts := d.mounts()
	if d.tutorialGit() {
		for _, m := range mounts {
			if m.Target == loop.TutorialMount {
				// The repository's .git may hold the checkout's credentials
				// (persist-credentials): hidden under an empty read-only tmpfs.
				mounts = append(mounts, mount.Mount{Type: mount.TypeTmpfs, Target: loop.TutorialMount + "/.git", ReadOnly: true})
				break
			}
		}
	}
	hostIP := "host-gateway"
	if d.opts.HostGatewayIP != "" {
		hostIP = d.opts.HostGatewayIP
	} else if d.sib != nil {
		hostIP = d.sib.ip
	}
	hcfg := &container.HostConfig{
		Mounts:      mounts,
		Init:        &init,
		CapDrop:     []string{"ALL"},
		CapAdd:      Capabilities,
		SecurityOpt: []string{"no-new-privileges:true"},
		ExtraHosts:  []string{HostAlias + ":" + hostIP},
		Resources: container.Resources{
			Memory:     mem,
			MemorySwap: mem, // no swap on top
			NanoCPUs:   int64(d.opts.CPUs * 1e9),
			PidsLimit:  &pids,
		},
		OomScoreAdj: 500, // the learner dies before anything else on the machine
	}
	if d.sib != nil && d.sib.network != "" {
		// On a network the orchestrator's container is on, so that it is reachable.
		hcfg.NetworkMode = container.NetworkMode(d.sib.network)
	}
	return cfg, hcfg
}

// mountSpec is one of the three workspace directories.
type mountSpec struct {
	local, target string
	readOnly      bool
}

func (d *Docker) mountSpecs() []mountSpec {
	var out []mountSpec
	if d.opts.TutorialDir != "" {
		out = append(out, mountSpec{d.opts.TutorialDir, loop.TutorialMount, true})
	}
	if d.opts.WorkDir != "" {
		out = append(out, mountSpec{d.opts.WorkDir, loop.WorkMount, false})
	}
	if dir := d.learnerLogs(); dir != "" {
		out = append(out, mountSpec{dir, loop.LogsMount, false})
	}
	return out
}

// LearnerLogs is the subdirectory of LogsDir mounted at /workspace/logs.
const LearnerLogs = "container"

// learnerLogs is the host directory the learner sees as /workspace/logs: a
// subdirectory of LogsDir, so that nothing it plants there shares a directory with the
// files the orchestrator writes.
func (d *Docker) learnerLogs() string {
	if d.opts.LogsDir == "" {
		return ""
	}
	return filepath.Join(d.opts.LogsDir, LearnerLogs)
}

// mounts are the bind mounts; in sibling mode a directory no mount of the orchestrator's
// container covers is copied in and out instead (copyIn/copyOut).
func (d *Docker) mounts() []mount.Mount {
	var out []mount.Mount
	for _, m := range d.mountSpecs() {
		src := m.local
		if d.sib != nil {
			hp, ok := d.sib.hostPath(m.local)
			if !ok {
				continue
			}
			src = hp
		}
		out = append(out, mount.Mount{Type: mount.TypeBind, Source: src, Target: m.target, ReadOnly: m.readOnly})
	}
	return out
}

// sleepFor is the argument of the container's `sleep`: Lifetime in seconds, or infinity.
func (d *Docker) sleepFor() string {
	if d.opts.Lifetime <= 0 {
		return "infinity"
	}
	return fmt.Sprint(int64(d.opts.Lifetime.Seconds()) + 1)
}

// tutorialGit reports whether the tutorial directory is a repository root (has .git).
func (d *Docker) tutorialGit() bool {
	if d.opts.TutorialDir == "" {
		return false
	}
	_, err := os.Lstat(filepath.Join(d.opts.TutorialDir, ".git"))
	return err == nil
}

// Package sandbox is the Docker Engine implementation of the loop's Sandbox: one
// hardened learner container per run, reset between iterations, talking to the
// orchestrator through host.docker.internal.
package sandbox

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/docker/docker/api/types"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/api/types/network"
	"github.com/docker/docker/api/types/system"
	"github.com/docker/docker/client"
	units "github.com/docker/go-units"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/smile-loop/smile-loop/internal/loop"
)

var _ loop.Sandbox = (*Docker)(nil)

// Labels on every container this package creates.
const (
	LabelRun    = "org.smile-loop.run"    // the run id
	LabelOutput = "org.smile-loop.output" // Options.OutputKey: reaping scope
	LabelRole   = "org.smile-loop.role"   // "learner"
)

// HostAlias is the name under which the container reaches the orchestrator.
const HostAlias = "host.docker.internal"

// dockerAPI lists the Docker client methods the sandbox uses.
type dockerAPI interface {
	Ping(ctx context.Context) (types.Ping, error)
	Info(ctx context.Context) (system.Info, error)
	ImageInspect(ctx context.Context, imageID string, opts ...client.ImageInspectOption) (image.InspectResponse, error)
	ImagePull(ctx context.Context, ref string, options image.PullOptions) (io.ReadCloser, error)
	ContainerCreate(ctx context.Context, config *container.Config, hostConfig *container.HostConfig, networkingConfig *network.NetworkingConfig, platform *ocispec.Platform, containerName string) (container.CreateResponse, error)
	ContainerStart(ctx context.Context, containerID string, options container.StartOptions) error
	ContainerKill(ctx context.Context, containerID, signal string) error
	ContainerRemove(ctx context.Context, containerID string, options container.RemoveOptions) error
	ContainerList(ctx context.Context, options container.ListOptions) ([]container.Summary, error)
	ContainerInspect(ctx context.Context, containerID string) (container.InspectResponse, error)
	ContainerExecCreate(ctx context.Context, containerID string, options container.ExecOptions) (container.ExecCreateResponse, error)
	ContainerExecAttach(ctx context.Context, execID string, config container.ExecAttachOptions) (types.HijackedResponse, error)
	ContainerExecInspect(ctx context.Context, execID string) (container.ExecInspect, error)
	CopyToContainer(ctx context.Context, containerID, dstPath string, content io.Reader, options container.CopyToContainerOptions) error
	CopyFromContainer(ctx context.Context, containerID, srcPath string) (io.ReadCloser, container.PathStat, error)
	NetworkInspect(ctx context.Context, networkID string, options network.InspectOptions) (network.Inspect, error)
	Close() error
}

// Docker is a learner container on the Docker Engine.
type Docker struct {
	api  dockerAPI
	opts Options
	log  *slog.Logger
	env  []string

	sib *sibling // nil unless the orchestrator runs in a container of the same engine

	mu      sync.RWMutex
	cur     string // current container id
	curName string
	spare   chan spareResult // the warm spare being prepared (ResetSpare), nil when none
	started bool
	closed  bool
	broken  bool // the current container was killed (fork bomb); restarted before the next Exec

	bg         sync.WaitGroup // asynchronous removals
	seq        atomic.Int64
	cmdSeq     int
	quotaLeft  atomic.Int64 // bytes the command-output files may still take (OutputQuota)
	workCopied bool         // sibling copy mode: the work directory went into a container once
}

type spareResult struct {
	id, name string
	err      error
}

// New connects to the Docker Engine (DOCKER_HOST and friends from the environment) and
// checks that the image exists. It starts nothing: call Start.
func New(ctx context.Context, o Options) (*Docker, error) {
	cli, err := client.NewClientWithOpts(client.FromEnv, client.WithAPIVersionNegotiation())
	if err != nil {
		return nil, &UnavailableError{Err: err}
	}
	d, err := newDocker(ctx, cli, o)
	if err != nil {
		_ = cli.Close()
		return nil, err
	}
	return d, nil
}

func newDocker(ctx context.Context, api dockerAPI, o Options) (*Docker, error) {
	if o.Image == "" {
		return nil, errors.New("sandbox: no image")
	}
	if o.RunID == "" {
		return nil, errors.New("sandbox: no run id")
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Memory == "" {
		o.Memory = "2g"
	}
	if o.CPUs <= 0 {
		o.CPUs = 2
	}
	if o.PidsLimit <= 0 {
		o.PidsLimit = 512
	}
	if o.OutputLimit <= 0 {
		o.OutputLimit = 64 << 10
	}
	if o.LogLimit <= 0 {
		o.LogLimit = 32 << 20
	}
	if o.OutputQuota <= 0 {
		o.OutputQuota = 512 << 20
	}
	switch o.ResetStrategy {
	case "":
		o.ResetStrategy = ResetSpare
	case ResetSpare, ResetRecreate:
	default:
		return nil, fmt.Errorf("sandbox: unknown reset strategy %q (want %q or %q)", o.ResetStrategy, ResetSpare, ResetRecreate)
	}
	if _, err := units.RAMInBytes(o.Memory); err != nil {
		return nil, fmt.Errorf("sandbox: memory limit %q: %w (use Docker syntax such as 512m or 2g)", o.Memory, err)
	}
	for _, p := range []*string{&o.TutorialDir, &o.WorkDir, &o.LogsDir} {
		if *p == "" {
			continue
		}
		abs, err := filepath.Abs(*p)
		if err != nil {
			return nil, fmt.Errorf("sandbox: %w", err)
		}
		*p = abs
	}
	if o.OutputKey == "" {
		sum := sha256.Sum256([]byte(o.LogsDir + "\x00" + o.WorkDir))
		o.OutputKey = hex.EncodeToString(sum[:8])
	}
	d := &Docker{api: api, opts: o, log: o.Logger}
	d.quotaLeft.Store(o.OutputQuota)
	keys := make([]string, 0, len(o.Env))
	for k := range o.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		d.env = append(d.env, k+"="+o.Env[k])
	}

	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := api.Ping(pctx); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &UnavailableError{Err: err}
	}
	if info, err := api.Info(pctx); err == nil && info.NCPU > 0 && d.opts.CPUs > float64(info.NCPU) {
		// Docker refuses a limit above the machine's cores; a 2-core default on a 1-core
		// machine should not fail the run.
		d.log.Debug("CPU limit above the machine's cores; using all cores", "cpus", d.opts.CPUs, "cores", info.NCPU)
		d.opts.CPUs = float64(info.NCPU)
	}
	if _, err := api.ImageInspect(pctx, o.Image); err != nil {
		if !client.IsErrNotFound(err) {
			return nil, classify("inspect image "+o.Image, o.Image, err)
		}
		if localOnly(o.Image) {
			return nil, &ImageMissingError{Image: o.Image, Err: err}
		}
		// Not on this machine: pull it, as `docker run` would (a runner starts empty).
		if err := pullImage(ctx, api, o.Image, o.Progress); err != nil {
			return nil, err
		}
	}
	if o.Sibling != "off" {
		d.sib = detectSibling(pctx, api, d.log)
	}
	return d, nil
}

// Start reaps containers left by earlier crashed runs with the same OutputKey, then
// creates and starts the learner container.
func (d *Docker) Start(ctx context.Context) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.started {
		return errors.New("sandbox: already started")
	}
	if d.opts.LogsDir != "" {
		if err := os.MkdirAll(d.opts.LogsDir, 0o755); err != nil {
			return classifyFS("create "+d.opts.LogsDir, err)
		}
	}
	for _, dir := range []string{d.opts.WorkDir, d.learnerLogs()} {
		if dir == "" {
			continue
		}
		if err := os.MkdirAll(dir, 0o777); err != nil {
			return classifyFS("create "+dir, err)
		}
		// Writable for any user in the container (ExecRequest.User), not only root.
		_ = os.Chmod(dir, 0o777)
	}
	if d.opts.TutorialDir != "" {
		fi, err := os.Stat(d.opts.TutorialDir)
		if err == nil && !fi.IsDir() {
			err = errors.New("not a directory")
		}
		if err != nil {
			return &DiskError{Op: "mount tutorial directory " + d.opts.TutorialDir, Err: err}
		}
	}
	if err := d.reap(ctx); err != nil {
		return err
	}
	id, name, err := d.create(ctx)
	if err != nil {
		return err
	}
	d.cur, d.curName, d.started = id, name, true
	d.log.Debug("learner container started", "container", name, "image", d.opts.Image)
	if d.opts.FreshWork && d.opts.WorkDir != "" {
		if err := d.emptyWork(ctx); err != nil {
			return err
		}
	}
	if d.sib != nil && len(d.mounts()) < len(d.mountSpecs()) {
		d.workCopied = true
		d.opts.ResetStrategy = ResetRecreate // copied directories cannot be shared with a spare
	}
	if d.opts.ResetStrategy == ResetSpare {
		d.prepareSpare()
	}
	return nil
}

// ContainerID is the current learner container's id ("" before Start).
func (d *Docker) ContainerID() string {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.cur
}

// reap removes containers of earlier runs that share this run's OutputKey (a crashed
// run, or one whose container was kept for debugging). Other runs' containers are
// never touched.
func (d *Docker) reap(ctx context.Context) error {
	list, err := d.api.ContainerList(ctx, container.ListOptions{
		All:     true,
		Filters: filters.NewArgs(filters.Arg("label", LabelOutput+"="+d.opts.OutputKey)),
	})
	if err != nil {
		return classify("list earlier containers", "", err)
	}
	for _, c := range list {
		if c.Labels[LabelOutput] != d.opts.OutputKey {
			continue
		}
		d.log.Info("removing container of an earlier run", "container", c.ID[:12], "run", c.Labels[LabelRun])
		if err := d.api.ContainerRemove(ctx, c.ID, container.RemoveOptions{Force: true, RemoveVolumes: true}); err != nil && !client.IsErrNotFound(err) {
			return classify("remove earlier container "+c.ID[:12], "", err)
		}
	}
	return nil
}

// Close removes the container unless the keepOn* policy keeps it; the spare is always
// removed, mounted directories always persist. It runs on its own deadline so that a
// cancelled run still cleans up.
func (d *Docker) Close(ctx context.Context, succeeded bool) error {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return nil
	}
	d.closed = true
	var errs []error
	if d.spare != nil {
		spare := d.spare
		d.spare = nil
		d.bg.Add(1)
		go func() { // the spare may still be starting: remove it once it exists
			defer d.bg.Done()
			if s := <-spare; s.id != "" {
				d.removeNow(s.id)
			}
		}()
	}
	cur, name := d.cur, d.curName
	keep := (succeeded && d.opts.KeepOnSuccess) || (!succeeded && d.opts.KeepOnFailure)
	if cur != "" {
		d.handOver(cctx, cur)
		if err := d.copyOut(cctx, cur); err != nil {
			errs = append(errs, err)
		}
		if keep {
			// Kept stopped, never running: the tutorial's background processes must not
			// outlive the run (they could keep writing to the mounted directories).
			if err := d.api.ContainerKill(cctx, cur, "KILL"); err != nil && !client.IsErrNotFound(err) {
				errs = append(errs, fmt.Errorf("stop kept container %s: %w", name, err))
			}
			d.log.Info("keeping the stopped learner container for debugging", "container", name,
				"hint", "docker start "+name+" && docker exec -it "+name+" bash; remove it with docker rm -f "+name)
		} else if err := d.api.ContainerRemove(cctx, cur, container.RemoveOptions{Force: true, RemoveVolumes: true}); err != nil && !client.IsErrNotFound(err) {
			errs = append(errs, fmt.Errorf("remove container %s: %w", name, err))
		}
		d.dropLearnerLinks()
	}
	d.mu.Unlock()
	done := make(chan struct{})
	go func() { d.bg.Wait(); close(done) }()
	select {
	case <-done:
	case <-cctx.Done():
		errs = append(errs, fmt.Errorf("waiting for container removal: %w", cctx.Err()))
	}
	if len(errs) == 0 {
		_ = d.api.Close()
	}
	return errors.Join(errs...)
}

// dropLearnerLinks removes the symbolic links the learner left in the writable
// directories once no process of it runs any more.
func (d *Docker) dropLearnerLinks() {
	for _, m := range d.mountSpecs() {
		if m.readOnly {
			continue
		}
		n, err := dropLinks(m.local)
		if err != nil {
			d.log.Warn("remove symbolic links the tutorial left", "dir", m.local, "err", err)
		} else if n > 0 {
			d.log.Info("removed symbolic links the tutorial left in an output directory", "dir", m.local, "links", n)
		}
	}
}

// removeAsync removes a container in the background (Close waits for it).
func (d *Docker) removeAsync(id string) {
	d.bg.Add(1)
	go func() {
		defer d.bg.Done()
		d.removeNow(id)
	}()
}

func (d *Docker) removeNow(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := d.api.ContainerRemove(ctx, id, container.RemoveOptions{Force: true, RemoveVolumes: true}); err != nil && !client.IsErrNotFound(err) {
		d.log.Warn("remove container", "container", shortID(id), "err", err)
	}
}

func shortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

func randHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// handOver gives the files the container's root wrote into the mounted work and logs
// directories to the owner of those directories on the host, so that a non-root
// orchestrator (a CI runner user) can read and delete them after the run.
func (d *Docker) handOver(ctx context.Context, id string) {
	var args []string
	for _, m := range d.mountSpecs() {
		if m.readOnly {
			continue
		}
		uid, gid, ok := owner(m.local)
		if !ok || uid == 0 {
			continue
		}
		args = append(args, fmt.Sprintf("chown -R %d:%d %s 2>/dev/null", uid, gid, m.target))
	}
	if len(args) == 0 {
		return
	}
	var out bytes.Buffer
	if _, err := d.runPlain(ctx, id, []string{"/bin/sh", "-c", strings.Join(args, "; ") + "; exit 0"}, &out); err != nil {
		d.log.Debug("hand over mounted files", "err", err)
	}
}

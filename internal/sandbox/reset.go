package sandbox

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/docker/docker/client"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// Empties the work directory, including dot files.
var wipeWork = []string{"find", loop.WorkMount, "-mindepth", "1", "-delete"}

// Reset gives the next iteration a clean slate: a container fresh from the image (files
// outside the mounts, installed packages, environment changes and background processes
// of the last iteration are gone) and, unless KeepWork, an empty work directory. When
// the reset fails it tries once to recover by recreating the container from the image;
// when that fails too the error matches ErrResetFailed (3.E4).
func (d *Docker) Reset(ctx context.Context) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.started || d.closed {
		return errors.New("sandbox: reset before start or after close")
	}
	err := d.reset(ctx)
	if err == nil || ctx.Err() != nil {
		return err
	}
	d.log.Warn("container reset failed; recreating the container from the image", "err", err)
	if rerr := d.recover(ctx); rerr != nil {
		return &ResetError{Err: err, Recovery: rerr}
	}
	return nil
}

func (d *Docker) reset(ctx context.Context) error {
	old := d.cur
	if err := d.copyOut(ctx, old); err != nil {
		return err
	}
	var next spareResult
	switch d.opts.ResetStrategy {
	case ResetSpare:
		if d.spare == nil {
			d.prepareSpare()
		}
		select {
		case next = <-d.spare:
			d.spare = nil
		case <-ctx.Done():
			return ctx.Err() // the spare stays pending for a later Reset or Close
		}
		if next.err != nil {
			return next.err
		}
		// The spare waited in the background: make sure it is still there and running.
		if st, err := d.api.ContainerInspect(ctx, next.id); err != nil || st.State == nil || !st.State.Running {
			d.removeAsync(next.id)
			if err == nil {
				err = errors.New("the warm spare container is not running")
			}
			return classify("swap in the warm spare", d.opts.Image, err)
		}
		d.retire(old)
	default:
		d.retire(old)
		next.id, next.name, next.err = d.create(ctx)
		if next.err != nil {
			return next.err
		}
	}
	d.cur, d.curName, d.broken = next.id, next.name, false
	if err := d.wipe(ctx); err != nil {
		return err
	}
	if d.opts.ResetStrategy == ResetSpare {
		d.prepareSpare()
	}
	return nil
}

// recover drops every container of this sandbox and starts a fresh one.
func (d *Docker) recover(ctx context.Context) error {
	if d.spare != nil {
		select {
		case s := <-d.spare:
			if s.id != "" {
				d.removeAsync(s.id)
			}
		case <-ctx.Done():
			return ctx.Err()
		}
		d.spare = nil
	}
	if d.cur != "" {
		d.retire(d.cur)
		d.cur, d.curName = "", ""
	}
	id, name, err := d.create(ctx)
	if err != nil {
		return err
	}
	d.cur, d.curName, d.broken = id, name, false
	if err := d.wipe(ctx); err != nil {
		return err
	}
	if d.opts.ResetStrategy == ResetSpare {
		d.prepareSpare()
	}
	return nil
}

// retire kills a used container at once, so none of its processes can still write to
// the mounted directories, and removes it in the background.
func (d *Docker) retire(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := d.api.ContainerKill(ctx, id, "KILL"); err != nil && !client.IsErrNotFound(err) {
		d.log.Debug("kill used container", "container", shortID(id), "err", err)
	}
	d.removeAsync(id)
}

// wipe empties the mounted work directory from inside the container (files there may
// belong to root of the container, which the orchestrator's user cannot delete).
func (d *Docker) wipe(ctx context.Context) error {
	if d.opts.KeepWork || d.opts.WorkDir == "" {
		return nil
	}
	return d.emptyWork(ctx)
}

// emptyWork empties the mounted work directory, whatever KeepWork says.
func (d *Docker) emptyWork(ctx context.Context) error {
	if d.sib != nil {
		if _, ok := d.sib.hostPath(d.opts.WorkDir); !ok {
			return nil // copied in, not mounted: the fresh container starts empty
		}
	}
	// Fast path: the orchestrator may delete everything itself (it runs as root, or the
	// container wrote nothing it cannot delete); otherwise root in the container does.
	if emptyDir(d.opts.WorkDir) == nil {
		return nil
	}
	var out bytes.Buffer
	if _, err := d.runPlain(ctx, d.cur, wipeWork, &out); err != nil {
		return classify("empty the work directory", "", err)
	}
	return nil
}

// emptyDir removes dir's contents, keeping dir itself.
func emptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// prepareSpare starts creating the next container in the background.
func (d *Docker) prepareSpare() {
	ch := make(chan spareResult, 1)
	d.spare = ch
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		var s spareResult
		s.id, s.name, s.err = d.create(ctx)
		ch <- s
	}()
}

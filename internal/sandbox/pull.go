package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/distribution/reference"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/pkg/jsonmessage"
	units "github.com/docker/go-units"
)

// PullTimeout bounds pulling a missing learner image (a smile-base image is a few
// hundred MB).
const PullTimeout = 15 * time.Minute

// pullEvery is how often pull progress is reported (a variable for the tests).
var pullEvery = 3 * time.Second

// localOnly says whether img only exists where it was built: smile-lite and smile-base
// without a registry in their name (`make images`, images/smile-base/Dockerfile). They
// are never pulled: the name would resolve to docker.io/library/…, which does not exist.
func localOnly(img string) bool {
	named, err := reference.ParseNormalizedNamed(img)
	if err != nil {
		return false
	}
	p := reference.Path(named)
	return reference.Domain(named) == "docker.io" && (p == "library/smile-lite" || p == "library/smile-base")
}

// pullImage pulls img through the Engine API (POST /images/create, what `docker pull`
// does), reporting progress through progress. Errors are *PullError with the registry's
// answer.
func pullImage(ctx context.Context, api dockerAPI, img string, progress func(string)) error {
	if progress == nil {
		progress = func(string) {}
	}
	ctx, cancel := context.WithTimeout(ctx, PullTimeout)
	defer cancel()
	start := time.Now()
	progress(fmt.Sprintf("pulling %s (not on this machine)", img))
	auth := registryAuth(ctx, img)
	rc, err := api.ImagePull(ctx, img, image.PullOptions{RegistryAuth: auth})
	if err != nil {
		if c, known := classifyKnown("pull "+img, img, err); known {
			var u *UnavailableError
			var d *DiskError
			if errors.As(c, &u) || errors.As(c, &d) {
				return c // the engine itself is unavailable, or its disk is full
			}
		}
		return &PullError{Image: img, Err: err, WithCredentials: auth != ""}
	}
	defer rc.Close()
	if err := followPull(rc, img, progress); err != nil {
		if ctx.Err() != nil {
			return &PullError{Image: img, Err: fmt.Errorf("%w after %s", ctx.Err(), time.Since(start).Round(time.Second)), WithCredentials: auth != ""}
		}
		return &PullError{Image: img, Err: err, WithCredentials: auth != ""}
	}
	progress(fmt.Sprintf("pulled %s in %s", img, time.Since(start).Round(100*time.Millisecond)))
	return nil
}

// followPull reads the engine's JSON progress stream to its end; an error message in
// the stream (the registry refused a layer, the tag vanished) is the pull's error.
func followPull(r io.Reader, img string, progress func(string)) error {
	type layer struct {
		current, total int64
		done           bool
	}
	layers := map[string]*layer{}
	last := time.Now()
	report := func() {
		var cur, total int64
		done := 0
		for _, l := range layers {
			if l.done {
				done++
			}
			cur, total = cur+l.current, total+l.total
		}
		msg := fmt.Sprintf("pulling %s: %d/%d layers", img, done, len(layers))
		if total > 0 {
			msg += fmt.Sprintf(", %s of %s downloaded", units.HumanSize(float64(cur)), units.HumanSize(float64(total)))
		}
		progress(msg)
	}
	dec := json.NewDecoder(r)
	for {
		var m jsonmessage.JSONMessage
		if err := dec.Decode(&m); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("read the pull progress: %w", err)
		}
		if m.Error != nil {
			return errors.New(m.Error.Message)
		}
		switch m.Status {
		case "Pulling fs layer", "Waiting", "Downloading", "Verifying Checksum", "Download complete",
			"Extracting", "Pull complete", "Already exists":
		default:
			continue // "Pulling from …" (its id is the tag), "Digest: …", "Status: …"
		}
		l := layers[m.ID]
		if l == nil {
			l = &layer{}
			layers[m.ID] = l
		}
		switch m.Status {
		case "Downloading":
			if m.Progress != nil {
				l.current, l.total = m.Progress.Current, m.Progress.Total
			}
		case "Download complete", "Verifying Checksum":
			if l.total > 0 {
				l.current = l.total
			}
		case "Pull complete", "Already exists":
			l.done = true
			if l.total > 0 {
				l.current = l.total
			}
		}
		if time.Since(last) >= pullEvery {
			last = time.Now()
			report()
		}
	}
}

// PullError: a missing image could not be pulled. Err is the registry's answer as the
// engine relays it.
type PullError struct {
	Image string
	Err   error
	// WithCredentials: credentials from the Docker configuration were sent.
	WithCredentials bool
}

func (e *PullError) Error() string {
	return fmt.Sprintf("image %s is not on this machine and pulling it failed: %v\nfix: %s", e.Image, e.Err, e.fix())
}

func (e *PullError) fix() string {
	msg := strings.ToLower(e.Err.Error())
	switch {
	case strings.Contains(msg, "unauthorized") || strings.Contains(msg, "denied") ||
		strings.Contains(msg, "authentication required") || strings.Contains(msg, "no basic auth credentials"):
		if e.WithCredentials {
			return fmt.Sprintf("the registry refused the credentials `docker login %s` stored: log in again, "+
				"and check that this account may pull %s", registryOf(e.Image), e.Image)
		}
		return fmt.Sprintf("the registry wants credentials for it. Log in and pull it before smile-loop runs "+
			"(`docker login %s` then `docker pull %s`; in a workflow, docker/login-action and a `docker pull` step before this one), "+
			"or make the package public", registryOf(e.Image), e.Image)
	case strings.Contains(msg, "not found") || strings.Contains(msg, "manifest unknown") ||
		strings.Contains(msg, "does not exist") || strings.Contains(msg, "name unknown"):
		return fmt.Sprintf("the registry has no such image or tag: check the name and tag (smile-loop publishes its learner images as %s), "+
			"or build the image locally and set containerImage (container-image) to its name", publishedHint)
	}
	return fmt.Sprintf("check that this machine reaches %s (`docker pull %s` shows the same answer), or pull or build the image yourself before the run", registryOf(e.Image), e.Image)
}

func (e *PullError) Unwrap() error { return e.Err }

// EnvironmentUnavailable marks the error as an environment problem (exit code 3).
func (e *PullError) EnvironmentUnavailable() bool { return true }

// publishedHint names the learner images of a release.
const publishedHint = "ghcr.io/smile-loop/smile-base:<version>, e.g. ghcr.io/smile-loop/smile-base:1.0.0"

// registryOf is the registry host of an image reference (docker.io for short names).
func registryOf(img string) string {
	named, err := reference.ParseNormalizedNamed(img)
	if err != nil {
		return "its registry"
	}
	return reference.Domain(named)
}

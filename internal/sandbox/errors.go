package sandbox

import (
	"errors"
	"fmt"
	"strings"

	"github.com/docker/docker/client"
)

// ErrResetFailed marks a reset that failed even after one recovery attempt (3.E4); the
// loop treats it as an unresolvable blocker. Match it with errors.Is.
var ErrResetFailed = errors.New("container reset failed")

// UnavailableError: the Docker Engine cannot be reached (3.E1).
type UnavailableError struct{ Err error }

func (e *UnavailableError) Error() string {
	return fmt.Sprintf("Docker is required but not available: %v\n"+
		"fix: start the Docker daemon (e.g. `sudo systemctl start docker`), make sure this user may use "+
		"its socket (e.g. `sudo usermod -aG docker $USER`, then log in again), or set DOCKER_HOST to a "+
		"running engine; check with `docker info`", e.Err)
}

func (e *UnavailableError) Unwrap() error { return e.Err }

// EnvironmentUnavailable marks the error as an environment problem (exit code 3).
func (e *UnavailableError) EnvironmentUnavailable() bool { return true }

// ImageMissingError: the configured image is not on this machine (3.E2).
type ImageMissingError struct {
	Image string
	Err   error
}

func (e *ImageMissingError) Error() string {
	return fmt.Sprintf("image %s not found: %s", e.Image, FixImage(e.Image))
}

func (e *ImageMissingError) Unwrap() error { return e.Err }

// EnvironmentUnavailable marks the error as an environment problem (exit code 3).
func (e *ImageMissingError) EnvironmentUnavailable() bool { return true }

// FixImage is the command that makes image available: the local-only smile-lite and
// smile-base are built, every other image is pulled when missing.
func FixImage(image string) string {
	if localOnly(image) && strings.Contains(image, "smile-base") {
		return fmt.Sprintf("build it from a smile-loop checkout with `docker build -f images/smile-base/Dockerfile -t %s .`, "+
			"or set containerImage to a published one, %s", image, publishedHint)
	}
	if localOnly(image) {
		return fmt.Sprintf("build it with `make images` (or `bash images/smile-lite/build.sh %s`)", image)
	}
	return fmt.Sprintf("pull it with `docker pull %s`, or build it and tag it with that name", image)
}

// StartError: the engine refused to create or start the container (3.E3); Err is
// Docker's own message.
type StartError struct {
	Image string
	Err   error
}

func (e *StartError) Error() string {
	return fmt.Sprintf("container from %s failed to start: %v", e.Image, e.Err)
}

func (e *StartError) Unwrap() error { return e.Err }

// EnvironmentUnavailable marks the error as an environment problem (exit code 3).
func (e *StartError) EnvironmentUnavailable() bool { return true }

// ResetError: Reset failed and its one recovery attempt failed too (3.E4).
type ResetError struct {
	Err      error // the reset's failure
	Recovery error // the recovery's failure
}

func (e *ResetError) Error() string {
	return fmt.Sprintf("container reset failed: %v; recovery (recreate from the image) failed too: %v", e.Err, e.Recovery)
}

func (e *ResetError) Unwrap() []error { return []error{ErrResetFailed, e.Err, e.Recovery} }

// EnvironmentUnavailable marks the error as an environment problem (exit code 3).
func (e *ResetError) EnvironmentUnavailable() bool { return true }

// NetworkError: the container cannot reach the orchestrator as host.docker.internal (3.E5).
type NetworkError struct{ Err error }

func (e *NetworkError) Error() string {
	return fmt.Sprintf("container networking failed: %v\n"+
		"fix: the learner container reaches the orchestrator as host.docker.internal, which needs "+
		"Docker Engine 20.10 or newer (--add-host host.docker.internal:host-gateway) and no firewall "+
		"rule blocking traffic from the docker bridge to this machine", e.Err)
}

func (e *NetworkError) Unwrap() error { return e.Err }

// EnvironmentUnavailable marks the error as an environment problem (exit code 3).
func (e *NetworkError) EnvironmentUnavailable() bool { return true }

// DiskError: a volume mount failed or the disk is full (3.E6).
type DiskError struct {
	Op  string // what failed, e.g. "mount /home/x/work"
	Err error
}

func (e *DiskError) Error() string {
	return fmt.Sprintf("%s: %v\n"+
		"fix: check that the mounted directory exists and is readable, and that the disk has free space "+
		"(`df -h`, `docker system df`; free space with `docker system prune`)", e.Op, e.Err)
}

func (e *DiskError) Unwrap() error { return e.Err }

// EnvironmentUnavailable marks the error as an environment problem (exit code 3).
func (e *DiskError) EnvironmentUnavailable() bool { return true }

// classify turns an engine error into the typed error a user can act on; op names what
// was attempted. Errors already typed pass through.
func classify(op, image string, err error) error {
	c, _ := classifyKnown(op, image, err)
	return c
}

// classifyKnown is classify that also says whether err is a known environment problem.
func classifyKnown(op, image string, err error) (error, bool) {
	if err == nil {
		return nil, false
	}
	var (
		u *UnavailableError
		m *ImageMissingError
		p *PullError
		s *StartError
		n *NetworkError
		d *DiskError
		r *ResetError
	)
	if errors.As(err, &u) || errors.As(err, &m) || errors.As(err, &p) || errors.As(err, &s) || errors.As(err, &n) ||
		errors.As(err, &d) || errors.As(err, &r) {
		return err, true
	}
	msg := strings.ToLower(err.Error())
	switch {
	case client.IsErrConnectionFailed(err) || strings.Contains(msg, "cannot connect to the docker daemon") ||
		(strings.Contains(msg, "docker.sock") && strings.Contains(msg, "permission denied")):
		return &UnavailableError{Err: err}, true
	case isNoSpace(msg):
		return &DiskError{Op: op + ": disk full", Err: err}, true
	case strings.Contains(msg, "no such image") || (image != "" && client.IsErrNotFound(err) && strings.Contains(msg, "image")):
		return &ImageMissingError{Image: image, Err: err}, true
	case strings.Contains(msg, "mount") && (strings.Contains(msg, "bind source path does not exist") ||
		strings.Contains(msg, "invalid mount config") || strings.Contains(msg, "mounts denied") ||
		strings.Contains(msg, "error while creating mount source path") || strings.Contains(msg, "error mounting")):
		return &DiskError{Op: op + ": volume mount failed", Err: err}, true
	case strings.Contains(msg, "host-gateway") || strings.Contains(msg, "add-host") || strings.Contains(msg, "network"):
		return &NetworkError{Err: fmt.Errorf("%s: %w", op, err)}, true
	}
	return fmt.Errorf("%s: %w", op, err), false
}

func isNoSpace(msg string) bool {
	return strings.Contains(msg, "no space left on device") || strings.Contains(msg, "disk quota exceeded")
}

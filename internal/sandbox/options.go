package sandbox

// What a sandbox is configured with: Options, their defaults from the run's
// configuration (ConfigOptions), the reset mechanisms and the capabilities kept.

import (
	"log/slog"
	"time"

	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/redact"
)

// Capabilities the learner keeps (everything else is dropped). They are what root inside
// the container needs to install packages (apt-get/dpkg: chown, bypass file permissions,
// set file modes and setuid bits, drop to the _apt user), switch users (su/sudo) and
// stop its own processes: CHOWN, DAC_OVERRIDE, FOWNER, FSETID, SETUID, SETGID, KILL,
// NET_BIND_SERVICE (servers on ports < 1024, common in tutorials), AUDIT_WRITE (sudo
// logs through audit and warns without it) and SYS_CHROOT: servers a tutorial starts
// confine themselves with chroot as they do on the reader's machine (sshd's privilege
// separation in /run/sshd, tftpd-hpa's --secure, vsftpd, bind's -t); without it they fail
// where the reader's would not. It is in Docker's default set, and with no-new-privileges
// a chroot cannot be used to gain privileges (a setuid binary planted in one does not
// run as its owner). Dropped from Docker's default set: MKNOD, NET_RAW, SETFCAP, SETPCAP.
var Capabilities = []string{"CHOWN", "DAC_OVERRIDE", "FOWNER", "FSETID", "SETUID", "SETGID", "KILL", "NET_BIND_SERVICE", "AUDIT_WRITE", "SYS_CHROOT"}

// Reset mechanisms (Options.ResetStrategy).
const (
	// ResetSpare swaps in a warm spare container started in the background from the
	// image; the used one is killed and removed asynchronously. The default: measured
	// fastest (see bench_test.go).
	ResetSpare = "spare"
	// ResetRecreate removes the container and creates a new one from the image.
	ResetRecreate = "recreate"
)

// Options configure a Docker sandbox. Paths are host paths (or, inside a container with
// the Docker socket mounted, paths of that container: see sibling.go).
type Options struct {
	Image     string
	RunID     string
	OutputKey string // identifies the output directory; containers of crashed runs with the same key are reaped. Default: a hash of LogsDir.

	TutorialDir string // mounted read-only at /workspace/tutorial
	WorkDir     string // mounted at /workspace/work (created when missing)
	// LogsDir holds each command's full output (LogsDir/commands) and is never mounted:
	// the orchestrator writes there, so the learner must not be able to plant links in it.
	// The learner's own /workspace/logs is LogsDir/container (LearnerLogs).
	LogsDir string

	Memory    string  // Docker syntax (512m, 2g); default 2g
	CPUs      float64 // default 2
	PidsLimit int64   // default 512

	KeepOnFailure bool
	KeepOnSuccess bool
	KeepWork      bool // keep the work directory across Reset instead of emptying it
	// FreshWork empties the work directory when the sandbox starts: a new run must not
	// follow the tutorial on top of what an earlier run into the same output directory
	// left there (a resumed run keeps it).
	FreshWork bool

	Env map[string]string // the container's whole environment besides the image's own

	// Lifetime bounds how long a learner container lives (0: unbounded): its main
	// process ends then, so a container the orchestrator could not remove (killed,
	// cancelled job) stops by itself instead of running the tutorial's processes on.
	Lifetime time.Duration

	// Redact masks the run's secrets in the command logs under LogsDir (nil: none).
	Redact *redact.Redactor

	// OutputLimit bounds Stdout and Stderr of an ExecResult (bytes each; default 64 KiB).
	OutputLimit int
	// LogLimit bounds each command's full-output file under LogsDir (default 32 MiB).
	LogLimit int64
	// OutputQuota bounds all the command-output files of the run together (default
	// 512 MiB): a tutorial cannot fill the runner's disk through them.
	OutputQuota int64
	// ResetStrategy is ResetSpare (default) or ResetRecreate.
	ResetStrategy string
	// HostGatewayIP overrides where host.docker.internal points ("" = Docker's host-gateway,
	// or the orchestrator's own address in sibling mode).
	HostGatewayIP string
	// Sibling: "auto" (default) detects an orchestrator running inside a container of the
	// same engine; "off" never does.
	Sibling string

	// Progress receives one line now and then while a missing image is pulled (nil:
	// nothing is reported). The orchestrator prints it: internal packages never print.
	Progress func(string)

	Logger *slog.Logger
}

// ConfigOptions fills the container settings of Options from the run's configuration
// (image, limits, keepOn*, keepWork); the caller adds the run id, directories and logger.
func ConfigOptions(c config.Config) Options {
	return Options{
		Image:         c.ContainerImage,
		Memory:        c.Container.Memory,
		CPUs:          c.Container.CPUs,
		PidsLimit:     int64(c.Container.PidsLimit),
		KeepOnFailure: c.Container.KeepOnFailure,
		KeepOnSuccess: c.Container.KeepOnSuccess,
		KeepWork:      c.Container.KeepWork,
	}
}

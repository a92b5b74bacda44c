package sandbox

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/sandbox/sandboxtest"
)

// samplesPerOp: each benchmark iteration takes this many samples of the operation and
// of its docker CLI baseline, so that the medians mean something even when b.N is 1.
const samplesPerOp = 5

// BenchmarkSandbox reports, as medians, container ready (Start), the exec round trip of
// `true` and Reset for both mechanisms, each beside the same operation done with the
// plain docker CLI in the same run; ratio = ours / CLI.
func BenchmarkSandbox(b *testing.B) {
	image := sandboxtest.RequireImage(b)
	ctx := context.Background()
	newBench := func(b *testing.B, strategy string) *Docker {
		dir := b.TempDir()
		d, err := New(ctx, Options{Image: image, RunID: "bench", ResetStrategy: strategy,
			TutorialDir: dir, WorkDir: filepath.Join(dir, "work"), LogsDir: filepath.Join(dir, "logs")})
		require.NoError(b, err)
		return d
	}

	b.Run("ready", func(b *testing.B) {
		var ours, cli []time.Duration
		for i := 0; i < b.N; i++ {
			for j := 0; j < samplesPerOp; j++ {
				d := newBench(b, ResetRecreate)
				t0 := time.Now()
				require.NoError(b, d.Start(ctx))
				ours = append(ours, time.Since(t0))
				require.NoError(b, d.Close(ctx, true))
				cli = append(cli, timeCLI(b, "run", "--rm", image, "true"))
			}
		}
		report(b, ours, cli)
	})

	b.Run("exec-true", func(b *testing.B) {
		d := newBench(b, ResetRecreate)
		require.NoError(b, d.Start(ctx))
		defer d.Close(ctx, true)
		var ours, cli []time.Duration
		for i := 0; i < b.N; i++ {
			for j := 0; j < samplesPerOp; j++ {
				t0 := time.Now()
				res, err := d.Exec(ctx, loop.ExecRequest{Command: "true"})
				ours = append(ours, time.Since(t0))
				require.NoError(b, err)
				require.Equal(b, 0, res.ExitCode)
				cli = append(cli, timeCLI(b, "exec", d.ContainerID(), "true"))
			}
		}
		report(b, ours, cli)
	})

	for _, strategy := range []string{ResetSpare, ResetRecreate} {
		b.Run("reset-"+strategy, func(b *testing.B) {
			d := newBench(b, strategy)
			require.NoError(b, d.Start(ctx))
			defer d.Close(ctx, true)
			var ours, cli []time.Duration
			for i := 0; i < b.N; i++ {
				for j := 0; j < samplesPerOp; j++ {
					// An iteration runs for seconds at least: the spare is ready by then.
					waitSpare(b, d)
					_, err := d.Exec(ctx, loop.ExecRequest{Command: "echo x >/etc/dirty; echo y >/workspace/work/f"})
					require.NoError(b, err)
					t0 := time.Now()
					require.NoError(b, d.Reset(ctx))
					ours = append(ours, time.Since(t0))
					cli = append(cli, timeCLIReset(b, image))
				}
			}
			report(b, ours, cli)
		})
	}
}

// waitSpare blocks until the warm spare (if any) is running.
func waitSpare(b *testing.B, d *Docker) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.spare == nil {
		return
	}
	s := <-d.spare
	require.NoError(b, s.err)
	ch := make(chan spareResult, 1)
	ch <- s
	d.spare = ch
}

func timeCLI(b *testing.B, args ...string) time.Duration {
	b.Helper()
	t0 := time.Now()
	out, err := exec.Command("docker", args...).CombinedOutput()
	d := time.Since(t0)
	require.NoError(b, err, string(out))
	return d
}

// timeCLIReset is the CLI's reset: remove a used container and run a fresh one.
func timeCLIReset(b *testing.B, image string) time.Duration {
	b.Helper()
	out, err := exec.Command("docker", "run", "-d", "--init", "--label", LabelRun+"=bench-cli", image, "sleep", "infinity").Output()
	require.NoError(b, err)
	id := strings.TrimSpace(string(out))
	t0 := time.Now()
	require.NoError(b, exec.Command("docker", "rm", "-f", id).Run())
	out, err = exec.Command("docker", "run", "-d", "--init", "--label", LabelRun+"=bench-cli", image, "sleep", "infinity").Output()
	d := time.Since(t0)
	require.NoError(b, err)
	require.NoError(b, exec.Command("docker", "rm", "-f", strings.TrimSpace(string(out))).Run())
	return d
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func report(b *testing.B, ours, cli []time.Duration) {
	mo, mc := median(ours), median(cli)
	b.ReportMetric(float64(mo.Microseconds())/1000, "ms-median")
	b.ReportMetric(float64(mc.Microseconds())/1000, "cli-ms-median")
	b.ReportMetric(float64(mo)/float64(mc), "ratio")
	b.Logf("%s: median %v (n=%d) vs docker CLI %v", b.Name(), mo.Round(time.Millisecond), len(ours), mc.Round(time.Millisecond))
}

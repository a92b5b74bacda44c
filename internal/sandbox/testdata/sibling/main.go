// Command sibling is a tiny orchestrator for the sibling-mode end-to-end test
// (test/e2e/sandbox_sibling_test.go). It runs inside a container that has the Docker
// socket and a workspace bind-mounted, starts a learner through the sandbox package and
// checks, from the orchestrator's side, what a GitHub Docker action needs: mounted
// files translated to host paths, unmounted ones copied in and out, and
// host.docker.internal reaching an HTTP server the orchestrator serves.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/sandbox"
)

func main() {
	image := flag.String("image", "smile-lite:latest", "learner image")
	workspace := flag.String("workspace", "/github/workspace", "bind-mounted workspace")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	failed := false
	for _, c := range []struct{ name, root string }{
		{"mounted", *workspace},                // bind mount of the orchestrator: translated
		{"copied", "/tmp/unmounted-workspace"}, // in no mount: copied in and out
	} {
		if err := check(ctx, log, *image, c.name, c.root); err != nil {
			fmt.Printf("FAIL %s: %v\n", c.name, err)
			failed = true
			continue
		}
		fmt.Printf("PASS %s\n", c.name)
	}
	if failed {
		os.Exit(1)
	}
}

func check(ctx context.Context, log *slog.Logger, image, name, root string) error {
	tut := filepath.Join(root, "tutorial-"+name)
	if err := os.MkdirAll(tut, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tut, "README.md"), []byte("# from the orchestrator "+name+"\n"), 0o644); err != nil {
		return err
	}
	work, logs := filepath.Join(root, "work-"+name), filepath.Join(root, "logs-"+name)
	d, err := sandbox.New(ctx, sandbox.Options{
		Image: image, RunID: "sibling-" + name, TutorialDir: tut, WorkDir: work, LogsDir: logs, Logger: log,
	})
	if err != nil {
		return fmt.Errorf("new: %w", err)
	}
	if err := d.Start(ctx); err != nil {
		return fmt.Errorf("start: %w", err)
	}
	closed := false
	defer func() {
		if !closed {
			_ = d.Close(ctx, true)
		}
	}()
	addr, err := d.HostAddr(ctx)
	if err != nil {
		return fmt.Errorf("host addr: %w", err)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(addr, "0"))
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "orchestrator says hi")
	}), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	port := ln.Addr().(*net.TCPAddr).Port

	res, err := d.Exec(ctx, loop.ExecRequest{
		Command: fmt.Sprintf(`cat /workspace/tutorial/README.md && curl -sS --max-time 10 http://host.docker.internal:%d/ && echo && `+
			`echo from-sibling >/workspace/work/out.txt && if test -e /var/run/docker.sock; then echo SOCKET; fi`, port),
		Timeout: 60 * time.Second,
	})
	if err != nil {
		return fmt.Errorf("exec: %w", err)
	}
	want := "# from the orchestrator " + name + "\norchestrator says hi\n"
	if res.ExitCode != 0 || res.Stdout != want {
		return fmt.Errorf("exec: exit %d, stdout %q (want %q), stderr %q", res.ExitCode, res.Stdout, want, res.Stderr)
	}
	if err := d.Close(ctx, true); err != nil {
		return fmt.Errorf("close: %w", err)
	}
	closed = true
	got, err := os.ReadFile(filepath.Join(work, "out.txt"))
	if err != nil {
		return fmt.Errorf("the learner's file is not in the orchestrator's work dir: %w", err)
	}
	if strings.TrimSpace(string(got)) != "from-sibling" {
		return errors.New("work file has " + string(got))
	}
	return nil
}

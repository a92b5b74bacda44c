package observe_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/observe"
)

// requireChromium finds Debian's chromium (scripts/deps.sh installs it). It skips when
// chromium is missing locally and fails in CI.
func requireChromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{os.Getenv("SMILE_CHROMIUM"), "chromium", "chromium-browser", "/usr/bin/chromium"} {
		if name == "" {
			continue
		}
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium not found: install it with scripts/deps.sh (Debian package chromium) or set SMILE_CHROMIUM")
	}
	t.Skip("chromium not found; install it with scripts/deps.sh to run the viewer test")
	return ""
}

func artifactDir(t *testing.T) string {
	if d := os.Getenv("SMILE_ARTIFACTS"); d != "" {
		require.NoError(t, os.MkdirAll(d, 0o755))
		return d
	}
	return t.TempDir()
}

// TestViewerInChromium opens the embedded page in headless Chromium against a real hub
// and server and checks what it shows as the run goes on.
func TestViewerInChromium(t *testing.T) {
	chromium := requireChromium(t)
	hub := observe.NewHub(observe.HubOptions{RunID: "run-42", Tutorial: "docs/quickstart.md", MaxIterations: 5})
	srvCtx, stopSrv := context.WithCancel(context.Background())
	defer stopSrv()
	addr, err := observe.Serve(srvCtx, observe.Addr(0), hub)
	require.NoError(t, err)
	url := observe.ViewerURL(addr, "")

	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium),
		chromedp.Flag("headless", "new"),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1280, 1000),
	)...)
	defer cancelAlloc()
	ctx, cancelTab := chromedp.NewContext(alloc, chromedp.WithLogf(t.Logf))
	defer cancelTab()
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()

	text := func(sel string) string {
		t.Helper()
		q, _ := json.Marshal(sel)
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector(`+string(q)+`).textContent`))
		require.NoError(t, err, sel)
		return s
	}
	waitFor := func(js string) {
		t.Helper()
		_, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](js, chromedp.WithPollingTimeout(15*time.Second)))
		require.NoError(t, err, js)
	}
	byID := func(id string) string { return `document.getElementById("` + id + `").textContent` }

	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(url)))
	waitFor(byID("conn") + ` === "live"`)
	assert.Equal(t, "docs/quickstart.md", text("#tutorial"))
	assert.Equal(t, "running", text("#status"))

	// Iteration 1 starts; the Student reads the plan and runs a command.
	hub.Emit(ev(loop.EventStateChange, loop.StateChangeData{Status: loop.StatusRunning, Phase: loop.PhaseStudent, Iteration: 1}))
	hub.Emit(ev(loop.EventIterationStart, loop.IterationStartData{Iteration: 1, Timestamp: time.Now().UTC()}))
	waitFor(byID("iteration") + ` === "1 / 5"`)
	assert.Equal(t, "student", text("#phase"))

	hub.Emit(ev(loop.EventPlanAccepted, map[string]any{"steps": []loop.PlanStep{
		{ID: 1, Title: "Install the CLI", StartLine: 3, EndLine: 10},
		{ID: 2, Title: "Start the server", StartLine: 11, EndLine: 20},
		{ID: 3, Title: "Open the dashboard", StartLine: 21, EndLine: 30},
	}}))
	hub.Emit(ev(loop.EventStepStart, loop.StepData{Step: "Install the CLI", Line: 5}))
	hub.Emit(ev(loop.EventCommand, loop.CommandRecord{Iteration: 1, Line: 5, Command: "curl -fsSL https://example.com/install.sh | sh", ExitCode: 0}))
	hub.Emit(ev(loop.EventStepStart, loop.StepData{Step: "Start the server", Line: 14}))
	hub.Emit(ev(loop.EventCommand, loop.CommandRecord{Iteration: 1, Line: 14, Command: "npm start", ExitCode: 127,
		Class: loop.ClassMissingDependency, Summary: "npm: command not found"}))
	hub.Emit(ev(loop.EventGap, loop.Finding{Iteration: 1, Step: "Start the server", Line: 14,
		Problem: "The tutorial runs npm but never says to install Node.js", Class: loop.ClassMissingDependency, Command: "npm start", ExitCode: 127}))
	waitFor(byID("step") + ` === "Step 2 of 3 · Start the server (line 14)"`)
	waitFor(`document.querySelectorAll("#commands tbody tr").length === 2`)
	assert.Equal(t, "127", text("#commands tbody tr:nth-child(2) td.exit"))
	assert.Contains(t, text("#gaps"), "Line 14")
	assert.Contains(t, text("#gaps"), "never says to install Node.js")
	assert.Equal(t, "1", text("#gap-count"))

	// The Mentor answers; its text (hostile markup included) is shown as text.
	hub.Emit(ev(loop.EventStudentOutput, loop.StudentOutputData{Status: loop.StudentAskMentor, Summary: "npm missing", CurrentStep: "Start the server"}))
	note := "Install Node.js 20 before `npm start`:\n  apt-get install -y nodejs npm\n<img src=x onerror=\"document.title='pwned'\">"
	hub.Emit(ev(loop.EventMentorOutput, loop.MentorOutputData{Notes: note}))
	waitFor(`document.querySelectorAll("#notes pre").length === 1`)
	assert.Equal(t, note, text("#notes pre"))
	imgs, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("img").length`))
	require.NoError(t, err)
	assert.Zero(t, imgs, "markup from events is never parsed")

	// Iteration 2, then the end.
	hub.Emit(ev(loop.EventIterationStart, loop.IterationStartData{Iteration: 2, Timestamp: time.Now().UTC()}))
	hub.Emit(ev(loop.EventLoopComplete, loop.LoopCompleteData{Status: loop.StatusMaxIterations,
		Summary: "1 gap found: line 14 needs a Node.js install step.", Iterations: 2}))
	waitFor(`!document.getElementById("final").hidden`)
	assert.Equal(t, "max iterations", text("#status"))
	assert.Contains(t, text("#summary"), "max iterations after 2 iterations")
	assert.Contains(t, text("#summary"), "1 gap found: line 14 needs a Node.js install step.")
	assert.Equal(t, "2 / 5", text("#iteration"))
	assert.Equal(t, "run finished", text("#step"))
	title, err := chromedp.Run(ctx, chromedp.Title())
	require.NoError(t, err)
	assert.NotContains(t, title, "pwned")

	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	shot := filepath.Join(artifactDir(t), "viewer.png")
	require.NoError(t, os.WriteFile(shot, png, 0o644))
	t.Logf("screenshot: %s", shot)

	// The server goes away (the run ended): the page says so and keeps trying; a new
	// server on the same address (a resumed run) is picked up with its current state.
	stopSrv()
	waitFor(byID("conn") + `.includes("retrying")`)
	assert.Contains(t, text("#summary"), "1 gap found", "the last state stays on screen")

	hub2 := observe.NewHub(observe.HubOptions{Tutorial: "docs/quickstart.md", MaxIterations: 5})
	hub2.Emit(ev(loop.EventIterationStart, loop.IterationStartData{Iteration: 3}))
	srv2Ctx, stopSrv2 := context.WithCancel(context.Background())
	defer stopSrv2()
	_, err = observe.Serve(srv2Ctx, addr.String(), hub2)
	require.NoError(t, err)
	waitFor(byID("conn") + ` === "live"`)
	waitFor(byID("iteration") + ` === "3 / 5"`)
	assert.Equal(t, "running", text("#status"))
	waitFor(`document.getElementById("final").hidden`)
}

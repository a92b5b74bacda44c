package none

import (
	"os"
	"testing"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/tutorial"
)

// TestDebugRead prints the steps read from SMILE_DEBUG_TUTORIAL (a development aid).
func TestDebugRead(t *testing.T) {
	p := os.Getenv("SMILE_DEBUG_TUTORIAL")
	if p == "" {
		t.Skip("set SMILE_DEBUG_TUTORIAL to a tutorial to print how it is read")
	}
	tut, err := tutorial.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range read(tut) {
		t.Logf("%s | lead=%q", s, loop.Clip(s.lead, 100))
	}
	t.Logf("prereqs: %v", declared(tut))
}

func TestDebugStatic(t *testing.T) {
	p := os.Getenv("SMILE_DEBUG_TUTORIAL")
	if p == "" {
		t.Skip("set SMILE_DEBUG_TUTORIAL")
	}
	tut, err := tutorial.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	ss := &session{task: loop.StudentTask{Tutorial: tut, Events: loop.Discard}, steps: read(tut), cwd: loop.WorkMount}
	ss.static()
	for _, f := range ss.res.Findings {
		t.Logf("%d: %s", f.Line, f.Problem)
	}
}

package loop

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/smile-loop/smile-loop/internal/config"
)

func TestStudentPromptStructure(t *testing.T) {
	t.Parallel()
	p := StudentPrompt(testTut(), []string{"install npm first", "use port 3000"}, config.Default().StudentBehavior)
	sections := []string{"[System Prompt]", "Constraints:", "Behavior settings:", "[Tutorial Content]", "[Mentor Notes from Previous Iterations]", "[Instruction]"}
	last := -1
	for _, s := range sections {
		i := strings.Index(p, s)
		assert.Greater(t, i, last, "%s in the spec's order", s)
		last = i
	}
	for _, want := range []string{
		"Do not search the web unless the tutorial explicitly tells you to",
		"Execute all commands in /workspace/work/",
		"Ask for help after 3 failed attempts",
		"Patience level: low",
		"npm install", // the raw tutorial
		"Note 1:\ninstall npm first", "Note 2:\nuse port 3000",
		"Begin following the tutorial. Output your result as JSON.",
		`"questionForMentor"`,
	} {
		assert.Contains(t, p, want)
	}
	assert.Contains(t, StudentPrompt(testTut(), nil, config.Default().StudentBehavior), "(none yet)")
}

// Every toggle and patience level changes the instructions (4.S3, 5.S2).
func TestStudentPromptBehaviour(t *testing.T) {
	t.Parallel()
	base := config.Default().StudentBehavior
	tests := []struct {
		name string
		mut  func(*config.StudentBehavior)
		want []string
	}{
		{"missing dependency on", nil, []string{"is not found", "stop and ask the mentor (status ask_mentor), naming what is missing"}},
		{"missing dependency off", func(b *config.StudentBehavior) { b.AskOnMissingDependency = false }, []string{"do not ask the mentor: resolve it yourself only if the tutorial shows how; otherwise report cannot_complete"}},
		{"ambiguous off", func(b *config.StudentBehavior) { b.AskOnAmbiguousInstruction = false }, []string{"When an instruction is unclear, do not ask the mentor"}},
		{"command failure off", func(b *config.StudentBehavior) { b.AskOnCommandFailure = false }, []string{"When a command fails, do not ask the mentor: after 3 attempts report cannot_complete"}},
		{"timeout", func(b *config.StudentBehavior) { b.TimeoutSeconds = 90 }, []string{"longer than 90 seconds, stop it and ask the mentor"}},
		{"timeout off", func(b *config.StudentBehavior) { b.AskOnTimeout = false }, []string{"longer than 60 seconds, do not ask the mentor"}},
		{"medium", func(b *config.StudentBehavior) { b.PatienceLevel = "medium" }, []string{"Patience level: medium", "try 2-3 approaches"}},
		{"high", func(b *config.StudentBehavior) { b.PatienceLevel = "high"; b.MaxRetriesBeforeHelp = 5 }, []string{"Patience level: high", "ask only after 5 failed attempts"}},
		{"all off (5.E3)", func(b *config.StudentBehavior) {
			b.AskOnMissingDependency, b.AskOnAmbiguousInstruction, b.AskOnCommandFailure, b.AskOnTimeout = false, false, false, false
		}, []string{"Never use status ask_mentor"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := base
			if tt.mut != nil {
				tt.mut(&b)
			}
			p := StudentPrompt(testTut(), nil, b)
			for _, w := range tt.want {
				assert.Contains(t, p, w)
			}
			if tt.mut != nil {
				assert.NotEqual(t, StudentPrompt(testTut(), nil, base), p)
			}
		})
	}
}

func TestMentorPromptStructure(t *testing.T) {
	t.Parallel()
	r := StudentResult{
		StudentOutput: StudentOutput{Status: StudentAskMentor, CurrentStep: "Run", QuestionForMentor: "where is npm?", AttemptedActions: []string{"ran npm install"}, Problem: "npm: command not found"},
		Trigger:       TriggerMissingDependency,
		Commands:      []CommandRecord{{Command: "npm install", Line: 6, ExitCode: 127, Output: "bash: npm: command not found"}},
	}
	p := MentorPrompt(testTut(), r)
	sections := []string{"[System Prompt]", "Do NOT:", "DO:", "[Tutorial Content]", "[Student's Question]", "[What Student Tried]", "[Error Details]", "[Instruction]"}
	last := -1
	for _, s := range sections {
		i := strings.Index(p, s)
		assert.Greater(t, i, last, "%s in the spec's order", s)
		last = i
	}
	for _, want := range []string{
		"- Complete the task for the student", "- Provide full code solutions", "- Modify any files",
		"paid service", "unresolvable", "2000 tokens",
		"   6 | npm install", // numbered lines to cite
		"where is npm?", "- ran npm install", "npm: command not found", "line 6: `npm install` exit 127",
		"stuck trigger: missing_dependency",
		"Provide helpful notes for the student. Be concise but complete.",
	} {
		assert.Contains(t, p, want)
	}
}

func TestTruncateNote(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "short", TruncateNote("  short \n"))
	long := strings.Repeat("é word ", 3000)
	got := TruncateNote(long)
	assert.LessOrEqual(t, len(got), MaxNoteChars+60)
	assert.True(t, strings.HasSuffix(got, "[… mentor note truncated to about 2000 tokens]"))
	assert.True(t, strings.ToValidUTF8(got, "?") == got, "never cuts a rune")
}

package loop

import (
	"fmt"
	"strings"

	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/tutorial"
)

// MaxNoteChars bounds one Mentor answer kept in the notes: about 2000 tokens (6.E2).
const MaxNoteChars = 8000

// StudentPrompt renders the Student prompt with the spec's structure (story 4): system
// prompt, constraints, behaviour settings with every toggle and the patience level turned
// into instructions, the raw tutorial, the accumulated mentor notes and the instruction
// with the output schema.
func StudentPrompt(tut *tutorial.Tutorial, notes []string, b config.StudentBehavior) string {
	var s strings.Builder
	s.WriteString("[System Prompt]\n")
	s.WriteString("You are a student learning from a tutorial. Follow the instructions exactly.\n")
	s.WriteString("You have limited patience and should ask for help when stuck.\n\n")
	s.WriteString("Constraints:\n")
	s.WriteString("- Do not search the web unless the tutorial explicitly tells you to\n")
	s.WriteString("- Do not assume knowledge the tutorial doesn't provide\n")
	s.WriteString("- Treat the tutorial as your only source of truth\n")
	s.WriteString("- Execute all commands in " + WorkMount + "/\n")
	s.WriteString("- The tutorial and its images are in " + TutorialMount + "/ (read-only)\n\n")
	s.WriteString("Behavior settings:\n")
	fmt.Fprintf(&s, "- Ask for help after %d failed attempts\n", max(b.MaxRetriesBeforeHelp, 1))
	fmt.Fprintf(&s, "- Patience level: %s\n", patience(b))
	for _, line := range behaviorInstructions(b) {
		s.WriteString("- " + line + "\n")
	}
	s.WriteString("\n[Tutorial Content]\n")
	if tut != nil {
		s.WriteString(tut.Body)
		if !strings.HasSuffix(tut.Body, "\n") {
			s.WriteString("\n")
		}
		for _, w := range tut.Warnings {
			s.WriteString("(note from the loader: " + w + ")\n")
		}
	}
	s.WriteString("\n[Mentor Notes from Previous Iterations]\n")
	if len(notes) == 0 {
		s.WriteString("(none yet)\n")
	}
	for i, n := range notes {
		fmt.Fprintf(&s, "Note %d:\n%s\n\n", i+1, strings.TrimSpace(n))
	}
	s.WriteString("\n[Instruction]\n")
	s.WriteString("Begin following the tutorial. Output your result as JSON.\n")
	s.WriteString("Reply with exactly one JSON object of this shape, and nothing after it:\n")
	s.WriteString(studentSchema)
	s.WriteString("When you ask for help, put in currentStep the tutorial step (quote its heading or first words),\n")
	s.WriteString("in problem the exact error or the confusing instruction quoted, and in questionForMentor one specific question.\n")
	return s.String()
}

const studentSchema = `{
  "status": "completed" | "ask_mentor" | "cannot_complete",
  "currentStep": "what step you were on",
  "attemptedActions": ["actions taken"],
  "problem": "what went wrong (if not completed)",
  "questionForMentor": "specific question (if ask_mentor)",
  "reason": "why you can't continue (if cannot_complete)",
  "summary": "what was accomplished",
  "filesCreated": ["file paths created"],
  "commandsRun": ["commands executed"]
}
`

// behaviorInstructions turns the behaviour settings into concrete instructions.
func behaviorInstructions(b config.StudentBehavior) []string {
	retries := max(b.MaxRetriesBeforeHelp, 1)
	var out []string
	switch patience(b) {
	case "high":
		out = append(out, fmt.Sprintf("Patience high: exhaust several reasonable options the tutorial allows (re-read the step, check for typos, run the step again) and keep going; ask only after %d failed attempts at the same step", retries))
	case "medium":
		out = append(out, fmt.Sprintf("Patience medium: try 2-3 approaches the tutorial supports before asking; never more than %d attempts at the same step", retries))
	default:
		out = append(out, "Patience low: ask for help at the first sign of difficulty; do not experiment or work around problems")
	}
	if b.AskOnMissingDependency {
		out = append(out, `When a command, package or module is not found ("command not found", "No module named", "Unable to locate package"), stop and ask the mentor (status ask_mentor), naming what is missing; do not install anything the tutorial does not tell you to install`)
	} else {
		out = append(out, "When a command, package or module is not found, do not ask the mentor: resolve it yourself only if the tutorial shows how; otherwise report cannot_complete naming what is missing")
	}
	if b.AskOnAmbiguousInstruction {
		out = append(out, "When you cannot tell what an instruction asks you to do, stop and ask the mentor, quoting the confusing instruction word for word")
	} else {
		out = append(out, "When an instruction is unclear, do not ask the mentor: take the most literal reading and continue, or report cannot_complete quoting it")
	}
	if b.AskOnCommandFailure {
		out = append(out, fmt.Sprintf("When a command fails (non-zero exit, an error message) and retrying within your patience does not help, ask the mentor with the command, its exit code and the error output (at most %d attempts)", retries))
	} else {
		out = append(out, fmt.Sprintf("When a command fails, do not ask the mentor: after %d attempts report cannot_complete with the command and its error", retries))
	}
	if b.AskOnTimeout {
		out = append(out, fmt.Sprintf("When a step takes longer than %d seconds, stop it and ask the mentor, saying which command did not finish", timeoutSeconds(b)))
	} else {
		out = append(out, fmt.Sprintf("When a step takes longer than %d seconds, do not ask the mentor: stop it and report cannot_complete, saying which command did not finish", timeoutSeconds(b)))
	}
	out = append(out, "A server that is meant to keep running (for example a web server the tutorial starts) should be started in the background and left running")
	if !b.AskOnMissingDependency && !b.AskOnAmbiguousInstruction && !b.AskOnCommandFailure && !b.AskOnTimeout {
		out = append(out, "Never use status ask_mentor: either complete the tutorial or report cannot_complete")
	}
	return out
}

func timeoutSeconds(b config.StudentBehavior) int {
	if b.TimeoutSeconds <= 0 {
		return 60
	}
	return b.TimeoutSeconds
}

// MentorPrompt renders the Mentor prompt with the spec's structure (story 6) for a
// stuck Student result.
func MentorPrompt(tut *tutorial.Tutorial, r StudentResult) string {
	var s strings.Builder
	s.WriteString("[System Prompt]\n")
	s.WriteString("You are a mentor helping a student who is stuck on a tutorial.\n")
	s.WriteString("You have access to web search, documentation, and related files.\n")
	s.WriteString("Your job is to provide the missing context so the student can continue.\n\n")
	s.WriteString("Do NOT:\n")
	s.WriteString("- Complete the task for the student\n")
	s.WriteString("- Provide full code solutions\n")
	s.WriteString("- Modify any files\n\n")
	s.WriteString("DO:\n")
	s.WriteString("- Explain what concept or step the student is missing\n")
	s.WriteString("- Point to relevant documentation or resources\n")
	s.WriteString("- Clarify ambiguous instructions\n")
	s.WriteString("- Suggest what the student should try next\n")
	s.WriteString("- Say which line of the tutorial is missing something and what it should say (this is a gap in the tutorial)\n")
	s.WriteString("- If the only way forward needs a paid service or account, say so plainly: it is a potential blocker the student should report\n")
	s.WriteString("- If you cannot find any way forward, say that the blocker appears unresolvable\n")
	fmt.Fprintf(&s, "- Keep your notes under about 2000 tokens\n")
	s.WriteString("\n[Tutorial Content]\n")
	if tut != nil {
		s.WriteString(numbered(tut))
	}
	s.WriteString("\n[Student's Question]\n")
	q := r.QuestionForMentor
	if q == "" {
		q = "(the student asked no explicit question)"
	}
	s.WriteString(q + "\n")
	if r.CurrentStep != "" {
		s.WriteString("(step: " + r.CurrentStep + ")\n")
	}
	if r.Trigger != "" {
		s.WriteString("(stuck trigger: " + string(r.Trigger) + ")\n")
	}
	s.WriteString("\n[What Student Tried]\n")
	if len(r.AttemptedActions) == 0 && len(r.CommandsRun) == 0 {
		s.WriteString("(nothing reported)\n")
	}
	for _, a := range r.AttemptedActions {
		s.WriteString("- " + a + "\n")
	}
	for _, c := range r.CommandsRun {
		s.WriteString("- ran: " + c + "\n")
	}
	s.WriteString("\n[Error Details]\n")
	p := r.Problem
	if p == "" {
		p = r.Reason
	}
	if p == "" {
		p = "(no error details)"
	}
	s.WriteString(p + "\n")
	for _, c := range r.Commands {
		if c.ExitCode != 0 || c.TimedOut {
			fmt.Fprintf(&s, "- line %d: `%s` exit %d: %s\n", c.Line, firstLine(c.Command), c.ExitCode, Clip(strings.TrimSpace(c.Output), 600))
		}
	}
	s.WriteString("\n[Instruction]\n")
	s.WriteString("Provide helpful notes for the student. Be concise but complete.\n")
	return s.String()
}

// numbered is the tutorial with line numbers, so the Mentor can cite lines.
func numbered(tut *tutorial.Tutorial) string {
	if tut.Map == nil || tut.Map.LineCount() == 0 {
		return tut.Body
	}
	var s strings.Builder
	for i := 1; i <= tut.Map.LineCount(); i++ {
		fmt.Fprintf(&s, "%4d | %s\n", i, tut.Map.Line(i))
	}
	return s.String()
}

// TruncateNote bounds a Mentor answer to MaxNoteChars (about 2000 tokens, 6.E2), cutting
// at a line or word boundary and saying so.
func TruncateNote(note string) string {
	note = strings.TrimSpace(note)
	if len(note) <= MaxNoteChars {
		return note
	}
	cut := note[:MaxNoteChars]
	for !utf8ValidEnd(cut) {
		cut = cut[:len(cut)-1]
	}
	if i := strings.LastIndexByte(cut, '\n'); i > MaxNoteChars/2 {
		cut = cut[:i]
	} else if i := strings.LastIndexByte(cut, ' '); i > MaxNoteChars/2 {
		cut = cut[:i]
	}
	return strings.TrimSpace(cut) + "\n[… mentor note truncated to about 2000 tokens]"
}

func utf8ValidEnd(s string) bool {
	if s == "" {
		return true
	}
	// a cut inside a multi-byte rune leaves a continuation or lead byte at the end
	b := s[len(s)-1]
	if b < 0x80 {
		return true
	}
	i := len(s) - 1
	for i > 0 && s[i]&0xC0 == 0x80 {
		i--
	}
	need := 1
	switch {
	case s[i]&0xE0 == 0xC0:
		need = 2
	case s[i]&0xF0 == 0xE0:
		need = 3
	case s[i]&0xF8 == 0xF0:
		need = 4
	}
	return len(s)-i == need
}

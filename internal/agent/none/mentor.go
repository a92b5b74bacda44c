package none

import (
	"context"
	"fmt"
	"strings"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// Mentor is the rule-based Mentor of the deterministic mode: for every finding it says
// what the tutorial is missing and where the fix belongs. It never runs anything.
type Mentor struct{}

var _ loop.Mentor = Mentor{}

// Advise writes one note and one suggested fix per finding (same order as the findings).
func (Mentor) Advise(_ context.Context, task loop.MentorTask) (loop.MentorResult, error) {
	var notes []string
	var fixes []string
	for _, f := range task.Student.Findings {
		fix := Fix(f)
		fixes = append(fixes, fix)
		where := fmt.Sprintf("Line %d", f.Line)
		if len(f.AlsoAt) > 0 {
			where += fmt.Sprintf(" (also at lines %s)", joinInts(f.AlsoAt))
		}
		notes = append(notes, fmt.Sprintf("%s: %s\nSuggested fix: %s", where, f.Problem, fix))
	}
	if len(notes) == 0 {
		return loop.MentorResult{Notes: "The Student reported no specific failure; re-read the step \"" + task.Student.CurrentStep + "\" and check that it says what to run and where."}, nil
	}
	head := fmt.Sprintf("The tutorial has %d gap(s) a newcomer would hit:", len(notes))
	return loop.MentorResult{Notes: head + "\n\n" + strings.Join(notes, "\n\n"), Fixes: fixes}, nil
}

// Fix is the rule-based suggested fix for one finding: the finding's own, else by its
// failure class when it has a line, else by its category. It is the only rule-based fix
// generator: the loop uses it (loop.Options.RuleFix) for any agent's finding the
// Mentor left without a fix.
func Fix(f loop.Finding) string {
	if f.Fix != "" {
		return f.Fix
	}
	if f.Line <= 0 || f.Class == "" {
		return categoryFix(f)
	}
	before := fmt.Sprintf("before line %d", f.Line)
	switch f.Class {
	case loop.ClassMissingDependency:
		kind, name := loop.MissingDependency(f.ExitCode, f.Output)
		if name == "" {
			name = firstWordOf(f.Command)
			kind = "command"
		}
		switch kind {
		case "module":
			if strings.Contains(f.Output, "Cannot find module") || strings.HasPrefix(strings.TrimSpace(f.Command), "node") || strings.HasPrefix(strings.TrimSpace(f.Command), "npm") {
				return fmt.Sprintf("the tutorial never installs the Node.js module `%s`; add `npm install %s` (or list it in package.json) %s", name, name, before)
			}
			mod := strings.SplitN(name, ".", 2)[0]
			return fmt.Sprintf("the tutorial never installs the Python module `%s`; add an install step such as `pip install %s` (inside the virtual environment, if the tutorial uses one) %s", mod, mod, before)
		case "package":
			return fmt.Sprintf("the package `%s` cannot be found on a fresh system; name the right package, or the repository to add first, %s", name, before)
		default:
			what := "`" + name + "`"
			if t, ok := knownTool(name); ok {
				what = t.Name
				if t.Debian != "" {
					what += " (on Debian: `" + t.Debian + "`)"
				}
			}
			return fmt.Sprintf("the tutorial never installs `%s`; add an install step for %s %s, or list it under prerequisites with a link to its installation guide", name, what, before)
		}
	case loop.ClassTimeout:
		return fmt.Sprintf("the command at line %d does not finish in time; say how long it takes, or, if it is a server meant to keep running, say so and how to stop it", f.Line)
	case loop.ClassTestFailure:
		return fmt.Sprintf("the tests at line %d fail when the tutorial is followed as written; check that the code shown earlier is complete and matches what the tests expect", f.Line)
	case loop.ClassLintFailure:
		return fmt.Sprintf("the linter at line %d reports problems in the code the tutorial provides; fix the code shown earlier or the lint configuration", f.Line)
	case loop.ClassRuntimeError:
		return fmt.Sprintf("the program crashes at line %d (%s); the code or the steps before it are incomplete — show the missing code or setup", f.Line, firstLineOf(f.Problem))
	case loop.ClassToolingError:
		return fmt.Sprintf("line %d needs something the reader's environment may not allow (permissions, network, disk); state the prerequisite explicitly", f.Line)
	default:
		return fmt.Sprintf("line %d fails on a fresh system (exit %d); add the missing step or explain the state it expects %s", f.Line, f.ExitCode, before)
	}
}

// categoryFix is the fix for a finding without a failure class or a line, by category.
func categoryFix(f loop.Finding) string {
	where := "before this step"
	if f.Line > 0 {
		where = fmt.Sprintf("before line %d", f.Line)
	}
	cmd := strings.Join(strings.Fields(f.Command), " ")
	switch f.Category {
	case loop.CategoryMissingPrerequisite:
		if _, t := loop.MissingDependency(127, f.Output+"\n"+f.Problem); t != "" {
			return fmt.Sprintf("List %q as a prerequisite %s and show how to install it (with the version the tutorial expects).", t, where)
		}
		return fmt.Sprintf("Add a prerequisites section %s naming every tool this step needs and how to install it.", where)
	case loop.CategoryMissingStep:
		if cmd != "" {
			return fmt.Sprintf("Add the step that creates what %q expects (file, directory or project) %s.", loop.Clip(cmd, 80), where)
		}
		return fmt.Sprintf("Add the missing step %s: the tutorial uses something it never creates.", where)
	case loop.CategoryCommandFailure:
		if cmd != "" {
			return fmt.Sprintf("Run %q in a fresh environment and fix it, or document what it needs to succeed (it exited with %d).", loop.Clip(cmd, 80), f.ExitCode)
		}
		return "Check this step in a fresh environment and fix the instruction or document what it needs."
	case loop.CategoryFailingCheck:
		return "Fix the code shown before this check so that it passes in a fresh environment, or say which failures are expected."
	case loop.CategoryEnvironmentAssumption:
		if f.Class == loop.ClassTimeout || f.Trigger == loop.TriggerTimeout {
			return "Say how long this step takes, or that it keeps running (start it in the background or a second terminal) and how to tell it is ready."
		}
		return "State the environment this step assumes (permissions, network access, free ports, operating system) and how to provide it."
	case loop.CategoryAmbiguousInstruction:
		return "Rewrite the instruction so it says exactly what to run or change: the command, the file name and the expected result."
	}
	return "Clarify this part of the tutorial: " + loop.Clip(strings.Join(strings.Fields(f.Problem), " "), 200)
}

func firstWordOf(command string) string {
	for _, w := range strings.Fields(command) {
		if strings.Contains(w, "=") || w == "sudo" || w == "env" {
			continue
		}
		return w
	}
	return command
}

func firstLineOf(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, ", ")
}

package loop

import (
	"regexp"
	"slices"
)

// Categories of a finding (the report's gap categories, one SARIF rule each).
const (
	CategoryMissingPrerequisite   = "missing prerequisite"
	CategoryMissingStep           = "missing step"
	CategoryCommandFailure        = "command failure"
	CategoryFailingCheck          = "failing check"
	CategoryEnvironmentAssumption = "environment assumption"
	CategoryAmbiguousInstruction  = "ambiguous instruction"
	CategoryOther                 = "other"
)

// Categories lists every category in a stable order.
func Categories() []string {
	return []string{CategoryMissingPrerequisite, CategoryMissingStep, CategoryCommandFailure, CategoryFailingCheck,
		CategoryEnvironmentAssumption, CategoryAmbiguousInstruction, CategoryOther}
}

// Severities of a finding, most severe first.
const (
	SeverityCritical = "critical" // the finding that stopped the run
	SeverityHigh     = "high"
	SeverityMedium   = "medium"
	SeverityLow      = "low"
)

var (
	reMissingStep = regexp.MustCompile(`(?i)no such file or directory|does not exist|cannot access|can't cd|not a git repository|enoent|could not open requirements file|no such container|not initialized`)
	reEnvironment = regexp.MustCompile(`(?i)permission denied|eacces|could not resolve host|temporary failure in name resolution|network is unreachable|connection refused|address already in use|eaddrinuse|no space left|must be run as root|are you root|operation not permitted`)
	reAmbiguous   = regexp.MustCompile(`(?i)\b(ambiguous|unclear|not clear|doesn't say|does not say|not specified|unspecified|which (?:one|version|file|directory)|not explained)\b`)
	reMissingDep  = regexp.MustCompile(`(?i)command not found|: not found\b|no module named|cannot find module|executable file not found|is not installed|not installed`)
)

// Categorize gives a finding's category: the agent's own when it is one of Categories,
// else from the failure class, then the stuck trigger, then the words of the problem and
// of the command's output (evidence: the recorded output when the finding has none).
//
//	missing_dependency                          missing prerequisite
//	"No such file", "does not exist", ENOENT    missing step
//	command_failure, runtime_error, tooling_…   command failure
//	test_failure, lint_failure                  failing check
//	timeout; permission, network, port errors   environment assumption
//	ambiguous_instruction, a question only      ambiguous instruction
//	anything else                               other
func Categorize(f Finding, evidence string) string {
	if slices.Contains(Categories(), f.Category) {
		return f.Category
	}
	text := f.Problem + "\n" + f.Output + "\n" + evidence
	byText := func(def string) string {
		switch {
		case reMissingStep.MatchString(text):
			return CategoryMissingStep
		case reEnvironment.MatchString(text):
			return CategoryEnvironmentAssumption
		}
		return def
	}
	switch f.Class {
	case ClassMissingDependency:
		return CategoryMissingPrerequisite
	case ClassTestFailure, ClassLintFailure:
		return CategoryFailingCheck
	case ClassTimeout:
		return CategoryEnvironmentAssumption
	case ClassRuntimeError, ClassCommandFailure, ClassToolingError, ClassUnknown:
		return byText(CategoryCommandFailure)
	}
	switch f.Trigger {
	case TriggerMissingDependency:
		return CategoryMissingPrerequisite
	case TriggerTimeout:
		return CategoryEnvironmentAssumption
	case TriggerAmbiguousInstruction:
		return CategoryAmbiguousInstruction
	case TriggerCommandFailure, TriggerMaxRetries:
		return byText(CategoryCommandFailure)
	}
	switch {
	case reMissingDep.MatchString(text):
		return CategoryMissingPrerequisite
	case f.Command != "" && f.ExitCode != 0:
		return byText(CategoryCommandFailure)
	case reMissingStep.MatchString(text):
		return CategoryMissingStep
	case reEnvironment.MatchString(text):
		return CategoryEnvironmentAssumption
	case f.Question != "" || reAmbiguous.MatchString(f.Problem):
		return CategoryAmbiguousInstruction
	}
	return CategoryOther
}

// SeverityOf is the severity of a category: what stops a reader is high, what slows
// one down medium, the rest low.
func SeverityOf(category string) string {
	switch category {
	case CategoryMissingPrerequisite, CategoryMissingStep, CategoryCommandFailure, CategoryFailingCheck:
		return SeverityHigh
	case CategoryEnvironmentAssumption, CategoryAmbiguousInstruction:
		return SeverityMedium
	}
	return SeverityLow
}

package config

import (
	"fmt"
	"strings"
)

// Problem is one thing wrong with smile.json.
type Problem struct {
	Path    string // JSON path such as "studentBehavior.patienceLevel"; "" for the whole file
	Value   string // the offending value as JSON, "" when the field is missing
	Message string // what is wrong, what is allowed and how to fix it
}

func (p Problem) String() string {
	path := p.Path
	if path == "" {
		path = "(top level)"
	}
	return path + ": " + p.Message
}

// ValidationError lists every problem of a configuration at once (spec 1.S2).
type ValidationError struct {
	File     string
	Problems []Problem
}

func (e *ValidationError) Error() string {
	var b strings.Builder
	n := len(e.Problems)
	plural := "s"
	if n == 1 {
		plural = ""
	}
	fmt.Fprintf(&b, "invalid configuration %s (%d problem%s):", e.File, n, plural)
	for _, p := range e.Problems {
		b.WriteString("\n  - ")
		b.WriteString(p.String())
	}
	return b.String()
}

// InvalidInput marks the error as the user's to fix (exit code 2).
func (e *ValidationError) InvalidInput() bool { return true }

// SyntaxError is smile.json that is not JSON, with the place of the first error.
type SyntaxError struct {
	File   string
	Line   int // 1-based
	Column int // 1-based, in characters
	Msg    string
	Source string // the offending line, for display
}

func (e *SyntaxError) Error() string {
	msg := fmt.Sprintf("invalid JSON in %s at line %d, column %d: %s", e.File, e.Line, e.Column, e.Msg)
	if e.Source != "" {
		msg += fmt.Sprintf("\n    %s\n    %s^", e.Source, strings.Repeat(" ", max(e.Column-1, 0)))
	}
	return msg + "\n  fix the JSON syntax (a missing comma or quote, or a trailing comma before } or ] are the usual causes)"
}

// InvalidInput marks the error as the user's to fix (exit code 2).
func (e *SyntaxError) InvalidInput() bool { return true }

// FileError is a configuration or tutorial file that cannot be used as named.
type FileError struct {
	Msg string
	Err error
}

func (e *FileError) Error() string { return e.Msg }
func (e *FileError) Unwrap() error { return e.Err }

// InvalidInput marks the error as the user's to fix (exit code 2).
func (e *FileError) InvalidInput() bool { return true }

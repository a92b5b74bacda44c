package ghaction

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// Matrix is a strategy.matrix: {"include":[{"tutorial":"docs/a.md"}, …]}.
type Matrix struct {
	Include []MatrixEntry `json:"include"`
}

// MatrixEntry is one job of the fan-out.
type MatrixEntry struct {
	Tutorial string `json:"tutorial"`
}

// JSON renders the matrix on one line, as GITHUB_OUTPUT wants it.
func (m Matrix) JSON() string {
	if m.Include == nil {
		m.Include = []MatrixEntry{}
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// Discovery chooses the tutorials to test for an event.
type Discovery struct {
	Workspace   string   // repository checkout (GITHUB_WORKSPACE)
	Patterns    []string // the tutorials input
	ChangedOnly bool     // on a PR, only the tutorials it changes
}

// Tutorials returns the sorted tutorial paths to test: on a pull request with
// ChangedOnly, the changed files (not removed) matching the patterns and present in the
// checkout; otherwise every file of the checkout matching them.
func (d Discovery) Tutorials(ctx context.Context, ev Event, changed func(context.Context) ([]PRFile, error)) ([]string, error) {
	if ev.IsPR() && d.ChangedOnly && changed != nil {
		files, err := changed(ctx)
		if err != nil {
			return nil, err
		}
		var out []string
		for _, f := range files {
			if f.Status == "removed" || !MatchAny(d.Patterns, f.Path) {
				continue
			}
			if _, err := os.Stat(filepath.Join(d.Workspace, filepath.FromSlash(f.Path))); err != nil {
				continue // not in this checkout (e.g. a shallow or sparse one)
			}
			out = append(out, f.Path)
		}
		sort.Strings(out)
		return out, nil
	}
	out, err := Glob(d.Workspace, d.Patterns)
	if err != nil {
		return nil, fmt.Errorf("find tutorials matching %v under %s: %w", d.Patterns, d.Workspace, err)
	}
	return out, nil
}

// MatrixOf builds the matrix of the tutorials.
func MatrixOf(tutorials []string) Matrix {
	m := Matrix{Include: []MatrixEntry{}}
	for _, t := range tutorials {
		m.Include = append(m.Include, MatrixEntry{Tutorial: t})
	}
	return m
}

package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// SARIF 2.1.0 output for GitHub code scanning. One rule per category (ids from RuleID,
// stable across versions), one result per gap at its lines, with the gap fingerprint as
// a partial fingerprint so code scanning follows a gap across runs and line shifts.

const (
	sarifVersion = "2.1.0"
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	// FingerprintKey names the gap fingerprint in SARIF partialFingerprints.
	FingerprintKey = "smileLoopGap/v1"
	toolURI        = "https://github.com/smile-loop/smile-loop"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool              sarifTool         `json:"tool"`
	Invocations       []sarifInvocation `json:"invocations"`
	Results           []sarifResult     `json:"results"`
	AutomationDetails *sarifAutomation  `json:"automationDetails,omitempty"`
	ColumnKind        string            `json:"columnKind"`
	Properties        map[string]any    `json:"properties,omitempty"`
}

type sarifAutomation struct {
	ID string `json:"id"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string         `json:"id"`
	Name                 string         `json:"name"`
	ShortDescription     sarifText      `json:"shortDescription"`
	FullDescription      sarifText      `json:"fullDescription"`
	Help                 sarifHelp      `json:"help"`
	DefaultConfiguration sarifConfig    `json:"defaultConfiguration"`
	Properties           map[string]any `json:"properties"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifHelp struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifInvocation struct {
	ExecutionSuccessful bool `json:"executionSuccessful"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Properties          map[string]any    `json:"properties"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine int        `json:"startLine"`
	EndLine   int        `json:"endLine,omitempty"`
	Snippet   *sarifText `json:"snippet,omitempty"`
}

type ruleInfo struct {
	name, short, full string
}

var rules = map[Category]ruleInfo{
	MissingPrerequisite:   {"MissingPrerequisite", "The tutorial uses a tool or package it never asks the reader to install.", "A command failed because a program, module or package was missing. Readers following the tutorial on a fresh machine hit the same wall; list the prerequisite and how to install it before the step that needs it."},
	MissingStep:           {"MissingStep", "The tutorial relies on something no earlier step creates.", "A step expected a file, directory or project that no earlier instruction creates. Add the missing step."},
	CommandFailure:        {"CommandFailure", "A command from the tutorial fails in a fresh environment.", "A command shown in the tutorial failed when run as written in a fresh environment. Fix the command or document what it needs."},
	FailingCheck:          {"FailingCheck", "A test or lint step of the tutorial fails.", "A test or lint command in the tutorial failed on the code the tutorial shows. Fix the code or explain the expected failure."},
	EnvironmentAssumption: {"EnvironmentAssumption", "The tutorial assumes something about the reader's environment.", "A step timed out or failed on permissions, network or ports: the tutorial assumes an environment it does not describe."},
	AmbiguousInstruction:  {"AmbiguousInstruction", "An instruction can be read more than one way.", "The simulated learner could not tell what to do from the instruction as written. Say exactly what to run or change and what should happen."},
	Other:                 {"OtherGap", "The learner got stuck here.", "The simulated learner got stuck at this point of the tutorial for a reason that fits no other category."},
}

func sarifLevel(s Severity) string {
	switch s {
	case Critical, High:
		return "error"
	case Medium:
		return "warning"
	}
	return "note"
}

// RenderSARIF renders smile-report.sarif (SARIF 2.1.0).
func RenderSARIF(r *Report) ([]byte, error) {
	cats := Categories()
	index := map[Category]int{}
	driver := sarifDriver{Name: "smile-loop", Version: r.Meta.Generator.Version, InformationURI: toolURI}
	for i, c := range cats {
		index[c] = i
		info := rules[c]
		driver.Rules = append(driver.Rules, sarifRule{
			ID: RuleID(c), Name: info.name,
			ShortDescription:     sarifText{info.short},
			FullDescription:      sarifText{info.full},
			Help:                 sarifHelp{Text: info.full, Markdown: info.full + "\n\nEach result carries the suggested fix; the full report is in `smile-report.md`."},
			DefaultConfiguration: sarifConfig{Level: sarifLevel(Severity(loop.SeverityOf(string(c))))},
			Properties:           map[string]any{"tags": []string{"documentation", "tutorial", "smile-loop"}, "precision": "medium"},
		})
	}
	uri := sarifURI(cmpStr(r.Meta.TutorialURI, r.Meta.Tutorial))
	results := make([]sarifResult, 0, len(r.Gaps))
	for _, g := range r.Gaps {
		msg := strings.TrimSpace(g.Problem)
		if g.SuggestedFix != "" {
			msg += "\n\nSuggested fix: " + strings.TrimSpace(g.SuggestedFix)
		}
		if !g.Location.Found {
			msg += "\n\n(The location in the tutorial could not be determined.)"
		}
		loc := sarifPhysical{ArtifactLocation: sarifArtifactLocation{URI: uri, URIBaseID: "%SRCROOT%"}}
		if g.Location.Found {
			reg := &sarifRegion{StartLine: g.Location.Line}
			if g.Location.EndLine > g.Location.Line {
				reg.EndLine = g.Location.EndLine
			}
			if g.Location.Text != "" {
				reg.Snippet = &sarifText{g.Location.Text}
			}
			loc.Region = reg
		}
		props := map[string]any{"gapId": g.ID, "severity": string(g.Severity), "category": string(g.Category),
			"iterations": g.Iterations, "title": g.Title}
		if g.Trigger != "" {
			props["trigger"] = g.Trigger
		}
		if g.Class != "" {
			props["failureClass"] = g.Class
		}
		results = append(results, sarifResult{
			RuleID: RuleID(g.Category), RuleIndex: index[g.Category], Level: sarifLevel(g.Severity),
			Message:             sarifText{msg},
			Locations:           []sarifLocation{{PhysicalLocation: loc}},
			PartialFingerprints: map[string]string{FingerprintKey: g.Fingerprint},
			Properties:          props,
		})
	}
	log := sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{{
		Tool:        sarifTool{Driver: driver},
		Invocations: []sarifInvocation{{ExecutionSuccessful: r.Meta.Status != "error"}},
		Results:     results,
		ColumnKind:  "unicodeCodePoints",
		Properties:  map[string]any{"status": r.Meta.Status, "iterations": r.Meta.Iterations, "runId": r.Meta.RunID},
	}}}
	if uri != "" {
		log.Runs[0].AutomationDetails = &sarifAutomation{ID: "smile-loop/" + uri + "/"}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(log); err != nil {
		return nil, fmt.Errorf("encode sarif: %w", err)
	}
	return r.redactor.Bytes(buf.Bytes()), nil
}

// sarifURI escapes a slash-separated relative path as a URI reference.
func sarifURI(p string) string {
	if p == "" {
		return "tutorial.md"
	}
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

func cmpStr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

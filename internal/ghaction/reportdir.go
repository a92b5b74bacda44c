package ghaction

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/smile-loop/smile-loop/internal/report"
)

// EventFile records, next to the reports, which pull request commit they are about, so
// a privileged workflow_run job can post them (the fork-safe pair).
const EventFile = "smile-event.json"

// EventRecord is the content of EventFile.
type EventRecord struct {
	Repository string `json:"repository"`
	PR         int    `json:"pullRequest"`
	HeadSHA    string `json:"headSha"`
}

// WriteEventRecord writes EventFile into dir and returns its path.
func WriteEventRecord(dir string, ev Event) (string, error) {
	b, err := json.MarshalIndent(EventRecord{Repository: ev.Owner + "/" + ev.Repo, PR: ev.PR, HeadSHA: ev.SHA}, "", "  ")
	if err != nil {
		return "", err
	}
	p := filepath.Join(dir, EventFile)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("write %s: %w", EventFile, err)
	}
	return p, os.WriteFile(p, append(b, '\n'), 0o644)
}

// Limits on an untrusted report directory.
const (
	maxReportFiles = 500
	maxReportBytes = 8 << 20
	maxGapsPerFile = 1000
	maxTextField   = 4000
)

// untrustedReport is the part of smile-report.json that posting needs; nothing else is
// read from an untrusted artifact.
type untrustedReport struct {
	Meta struct {
		Tutorial    string `json:"tutorial"`
		TutorialURI string `json:"tutorialUri"`
		Status      string `json:"status"`
		Completed   bool   `json:"completed"`
	} `json:"meta"` // its failOn is never read: the trusted job decides the threshold
	Gaps []struct {
		ID       int `json:"id"`
		Location struct {
			Found       bool     `json:"found"`
			Line        int      `json:"line"`
			EndLine     int      `json:"endLine"`
			Text        string   `json:"text"`
			HeadingPath []string `json:"headingPath"`
		} `json:"location"`
		Problem      string `json:"problem"`
		SuggestedFix string `json:"suggestedFix"`
		Severity     string `json:"severity"`
		Category     string `json:"category"`
		Fingerprint  string `json:"fingerprint"`
		Evidence     *struct {
			Command  string `json:"command"`
			ExitCode int    `json:"exitCode"`
			Output   string `json:"output"`
		} `json:"evidence"`
	} `json:"gaps"`
}

// ReportDirError is an unusable report directory.
type ReportDirError struct{ Reason string }

func (e *ReportDirError) Error() string {
	return "report-dir: " + e.Reason + "; point report-dir at the downloaded smile-report artifact"
}

// InvalidInput marks the error for the exit-code mapping.
func (e *ReportDirError) InvalidInput() bool { return true }

// LoadReportDir reads the reports of an untrusted run as data: only smile-report.json
// files, size-limited, strictly decoded, paths and lines validated, text clipped. The
// returned results carry no Markdown (the summary is re-rendered from the gaps, escaped)
// and no files. failOn, the trusted job's own threshold, decides pass/fail ("" means
// report.Failed's default); the threshold the artifact claims is ignored.
func LoadReportDir(dir, failOn string) ([]Result, *EventRecord, error) {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 {
			return nil // never follow links out of the artifact
		}
		if !d.IsDir() && (d.Name() == "smile-report.json" || d.Name() == EventFile) {
			paths = append(paths, p)
		}
		if len(paths) > maxReportFiles {
			return errors.New("too many files")
		}
		return nil
	})
	if err != nil {
		return nil, nil, &ReportDirError{Reason: err.Error()}
	}
	sort.Strings(paths)
	var (
		results []Result
		rec     *EventRecord
	)
	for _, p := range paths {
		data, err := readLimited(p)
		if err != nil {
			return nil, nil, &ReportDirError{Reason: err.Error()}
		}
		if filepath.Base(p) == EventFile {
			var r EventRecord
			if err := json.Unmarshal(data, &r); err != nil || r.PR <= 0 || !isSHA(r.HeadSHA) {
				return nil, nil, &ReportDirError{Reason: p + " is not a valid event record"}
			}
			rec = &r
			continue
		}
		res, err := fromUntrusted(data, failOn)
		if err != nil {
			return nil, nil, &ReportDirError{Reason: fmt.Sprintf("%s: %v", p, err)}
		}
		results = append(results, res)
	}
	if len(results) == 0 {
		return nil, nil, &ReportDirError{Reason: "no smile-report.json under " + dir}
	}
	return results, rec, nil
}

func readLimited(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxReportBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxReportBytes {
		return nil, fmt.Errorf("%s is larger than %d bytes", p, maxReportBytes)
	}
	return data, nil
}

func isSHA(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	return strings.Trim(strings.ToLower(s), "0123456789abcdef") == ""
}

func cleanRepoPath(p string) (string, bool) {
	p = strings.ReplaceAll(p, `\`, "/")
	c := path.Clean(p)
	if p == "" || path.IsAbs(c) || c == ".." || strings.HasPrefix(c, "../") || strings.ContainsAny(c, "\x00\n\r") {
		return "", false
	}
	return c, true
}

func clip(s string) string {
	if len(s) > maxTextField {
		return truncate(s, maxTextField)
	}
	return s
}

func fromUntrusted(data []byte, failOn string) (Result, error) {
	var u untrustedReport
	if err := json.Unmarshal(data, &u); err != nil {
		return Result{}, fmt.Errorf("not a smile-loop report: %w", err)
	}
	tut := u.Meta.TutorialURI
	if tut == "" {
		tut = u.Meta.Tutorial
	}
	tut, ok := cleanRepoPath(tut)
	if !ok {
		return Result{}, fmt.Errorf("tutorial path %q is not inside the repository", u.Meta.TutorialURI)
	}
	if len(u.Gaps) > maxGapsPerFile {
		return Result{}, fmt.Errorf("%d gaps is more than %d", len(u.Gaps), maxGapsPerFile)
	}
	rep := &report.Report{SchemaVersion: report.SchemaVersion}
	rep.Meta.Tutorial, rep.Meta.TutorialURI = tut, tut
	rep.Meta.Status, rep.Meta.Completed = clip(u.Meta.Status), u.Meta.Completed
	for i, g := range u.Gaps {
		sev := report.Severity(strings.ToLower(g.Severity))
		if sev.Rank() == 0 {
			sev = report.Medium
		}
		gp := report.Gap{ID: i + 1, Problem: clip(g.Problem), SuggestedFix: clip(g.SuggestedFix), Severity: sev,
			Category: report.Category(clip(g.Category)), Fingerprint: clip(g.Fingerprint)}
		if g.ID > 0 && g.ID < 1<<20 {
			gp.ID = g.ID
		}
		if e := g.Evidence; e != nil && (e.Command != "" || e.Output != "") {
			gp.Evidence = &report.Evidence{Command: clip(e.Command), ExitCode: e.ExitCode, Output: clip(e.Output)}
		}
		if l := g.Location; l.Found && l.Line > 0 && l.Line < 1<<20 {
			gp.Location = report.Location{Found: true, Line: l.Line, Text: clip(l.Text)}
			if l.EndLine > l.Line && l.EndLine < 1<<20 {
				gp.Location.EndLine = l.EndLine
			}
			for _, h := range l.HeadingPath[:min(len(l.HeadingPath), 10)] {
				gp.Location.HeadingPath = append(gp.Location.HeadingPath, clip(h))
			}
		}
		rep.Gaps = append(rep.Gaps, gp)
	}
	return Result{Tutorial: tut, Report: rep, FailOn: failOn, Untrusted: true}, nil
}

// VerifyPR checks that the pull request of an event record still has the head commit
// the workflow_run ran on, so a report cannot be posted on another pull request.
func (g *GitHub) VerifyPR(ctx context.Context, rec EventRecord, runHeadSHA string) error {
	if !strings.EqualFold(rec.Repository, g.Event.Owner+"/"+g.Event.Repo) {
		return &ReportDirError{Reason: fmt.Sprintf("the reports are about %s, not this repository", rec.Repository)}
	}
	if runHeadSHA != "" && !strings.EqualFold(rec.HeadSHA, runHeadSHA) {
		return &ReportDirError{Reason: "the reports' commit differs from the workflow run's head commit"}
	}
	pr, _, err := g.Client.PullRequests.Get(ctx, g.Event.Owner, g.Event.Repo, rec.PR)
	if err != nil {
		return fmt.Errorf("get pull request #%d: %w", rec.PR, err)
	}
	if !strings.EqualFold(pr.GetHead().GetSHA(), rec.HeadSHA) {
		return &ReportDirError{Reason: fmt.Sprintf("pull request #%d has moved on to another commit; the next run will post", rec.PR)}
	}
	return nil
}

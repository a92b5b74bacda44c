package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/eval"
	"github.com/smile-loop/smile-loop/internal/loop"
	rpt "github.com/smile-loop/smile-loop/internal/report"
)

// cmdEval runs every tutorial of one or more labelled corpora in deterministic mode and
// prints, per tutorial and in total, true positives, false positives, misses, precision,
// recall and wall time. It measures; it does not fail on low figures.
func cmdEval(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "eval")
	image := fs.String("image", "smile-lite:latest", "learner image for every tutorial (a case's own smile.json may name another)")
	output := fs.String("output", "", "keep each tutorial's report under DIR/<name> (default: a temporary directory, removed afterwards)")
	jsonOut := fs.String("json", "", "also write the figures and every scored gap as JSON to this file")
	verbose := fs.Bool("v", false, "list every reported gap with its verdict, and every missed gap")
	jobs := fs.Int("j", 1, "run up to N tutorials at once (each in its own container); the table keeps the corpus order")
	fixChecks := fs.Bool("fix-checks", false, "also re-run each concrete fix in a fresh container to prove it, as `run` does (slower; the scores do not change)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: smile-action eval [--image IMG] [--output DIR] [--json FILE] [-j N] [-fix-checks] [-v] DIR...\n\nRuns each labelled tutorial (a directory with tutorial.md and expected.json, or a corpus of them) in\ndeterministic mode and scores the reported gaps against expected.json.")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageError{errors.New("eval needs at least one corpus directory, e.g. smile-action eval ../shared/corpus")}
	}
	if *jobs < 1 {
		return usageError{fmt.Errorf("-j %d: the number of tutorials run at once must be at least 1", *jobs)}
	}
	cases, err := eval.Discover(fs.Args()...)
	if err != nil {
		return usageError{err}
	}
	root := *output
	if root == "" {
		if root, err = os.MkdirTemp("", "smile-eval-"); err != nil {
			return err
		}
		defer func() { _ = os.RemoveAll(root) }()
	}
	start := time.Now()
	results := make([]eval.Result, len(cases))
	dirs := outputDirs(root, cases)
	var mu sync.Mutex // serialises the progress lines
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(*jobs)
	for i, c := range cases {
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			results[i] = evalCase(gctx, e, c, *image, dirs[i], *fixChecks)
			mu.Lock()
			fmt.Fprintf(e.stderr, "eval: %s: %s\n", c.Name, results[i].Line())
			mu.Unlock()
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	printEval(e.stdout, results, *verbose)
	fmt.Fprintf(e.stdout, "eval: wall time %.0f s with up to %d tutorial(s) at once\n", time.Since(start).Seconds(), *jobs)
	if *jsonOut != "" {
		data, err := json.MarshalIndent(eval.Summarise(results), "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(*jsonOut, append(data, '\n'), 0o644); err != nil {
			return fmt.Errorf("write %s: %w", *jsonOut, err)
		}
	}
	for _, r := range results {
		if r.Err != "" {
			return fmt.Errorf("%d tutorial(s) could not be run; see the table", countErrs(results))
		}
	}
	return nil
}

// outputDirs gives each case its own report directory under root, named after the case;
// cases of different corpora that share a name get a numbered suffix.
func outputDirs(root string, cases []eval.Case) []string {
	seen := map[string]int{}
	dirs := make([]string, len(cases))
	for i, c := range cases {
		seen[c.Name]++
		name := c.Name
		if n := seen[c.Name]; n > 1 {
			name = fmt.Sprintf("%s-%d", c.Name, n)
		}
		dirs[i] = filepath.Join(root, name)
	}
	return dirs
}

func countErrs(rs []eval.Result) int {
	n := 0
	for _, r := range rs {
		if r.Err != "" {
			n++
		}
	}
	return n
}

// evalCase runs one labelled tutorial and scores its report.
func evalCase(ctx context.Context, e *env, c eval.Case, image, outDir string, fixChecks bool) (res eval.Result) {
	res.Name = c.Name
	start := time.Now()
	defer func() { res.Seconds = time.Since(start).Seconds() }()
	cfg := config.Default()
	if c.Config != "" {
		loaded, _, err := config.Load(c.Config)
		if err != nil {
			res.Err = err.Error()
			return res
		}
		cfg = loaded
	} else {
		cfg.ContainerImage = image
	}
	cfg.LLMProvider = config.ProviderNone
	cfg.Tutorial = c.Tutorial
	cfg.OutputDir = outDir
	cfg.Observe.Enabled = false
	// eval scores reports; nobody inspects its containers, and keeping the failed ones
	// (the default, for debugging a run) left one stopped container per tutorial
	cfg.Container.KeepOnFailure, cfg.Container.KeepOnSuccess = false, false
	if err := os.RemoveAll(outDir); err != nil {
		res.Err = err.Error()
		return res
	}
	quiet := &env{getenv: e.getenv, stdout: io.Discard, stderr: io.Discard, log: e.log, skipFixChecks: !fixChecks}
	out, err := runTutorial(ctx, quiet, runRequest{Config: &cfg, Tutorial: c.Tutorial, OutputDir: outDir, Quiet: true})
	if out == nil || out.Report == nil {
		if err == nil {
			err = errors.New("no report")
		}
		res.Err = err.Error()
		return res
	}
	r := out.Report
	res.Status = string(r.Meta.Status)
	raw, rerr := os.ReadFile(c.Tutorial)
	if rerr != nil {
		res.Err = rerr.Error()
		return res
	}
	score, serr := eval.ScoreCase(c, raw, reportedGaps(r))
	if serr != nil {
		res.Err = serr.Error()
		return res
	}
	res.Score = score
	return res
}

// reportedGaps turns a report's gaps into what the scorer reads.
func reportedGaps(r *rpt.Report) []eval.Reported {
	out := make([]eval.Reported, 0, len(r.Gaps))
	for _, g := range r.Gaps {
		text := []string{g.Title, g.Problem, g.SuggestedFix}
		if g.Evidence != nil {
			text = append(text, g.Evidence.Command, g.Evidence.Output)
		}
		line := 0
		if g.Location.Found {
			line = g.Location.Line
		}
		out = append(out, eval.Reported{Line: line, Text: strings.Join(text, "\n"), Environment: g.Category == rpt.EnvironmentAssumption})
	}
	return out
}

func printEval(w io.Writer, results []eval.Result, verbose bool) {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "tutorial\texpected\tfound\treported\tTP\tFP\tmissed\tprecision\trecall\tseconds\tstatus\t")
	for _, r := range results {
		s := r.Score
		status := r.Status
		if r.Err != "" {
			status = "error: " + loop.Clip(r.Err, 60)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t%.1f\t%s\t\n", r.Name, s.Expected, s.Found, s.Reported, s.Correct,
			s.FalsePositives(), len(s.Missed), eval.Percent(s.Correct, s.Reported), eval.Percent(s.Found, s.Expected), r.Seconds, status)
	}
	t := eval.Summarise(results).Total
	fmt.Fprintf(tw, "TOTAL\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t%.1f\t\t\n", t.Expected, t.Found, t.Reported, t.Correct, t.FalsePositives,
		t.Missed, eval.Percent(t.Correct, t.Reported), eval.Percent(t.Found, t.Expected), t.Seconds)
	_ = tw.Flush()
	fmt.Fprintf(w, "eval: %d tutorial(s): precision %s, recall %s (%d of %d expected gaps found, %d of %d reported gaps correct), %.0f s\n",
		len(results), eval.Percent(t.Correct, t.Reported), eval.Percent(t.Found, t.Expected), t.Found, t.Expected, t.Correct, t.Reported, t.Seconds)
	if !verbose {
		return
	}
	for _, r := range results {
		for _, sc := range r.Score.Scored {
			fmt.Fprintf(w, "  %s:%d %s: %s\n", r.Name, sc.Line, sc.Verdict, loop.Clip(firstLineOf(sc.Text), 120))
		}
		for _, m := range r.Score.Missed {
			fmt.Fprintf(w, "  %s: MISSED %q (%s)\n", r.Name, m.Marker, loop.Clip(m.Why, 100))
		}
	}
}

func firstLineOf(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

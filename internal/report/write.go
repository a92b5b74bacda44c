package report

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/cenkalti/backoff/v4"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// Files are the paths Write wrote.
type Files struct {
	Markdown string `json:"markdown"`
	JSON     string `json:"json"`
	SARIF    string `json:"sarif"`
	Audit    string `json:"audit"`
}

// WriteOption tunes Write.
type WriteOption func(*writeConfig)

type writeConfig struct {
	fallback  io.Writer
	attempts  int
	delay     time.Duration
	writeFile func(path string, fill func(io.Writer) error) error
}

// WithFallback sets where the Markdown report goes when the files cannot be written
// (the spec asks for standard output: 9.E3; cmd passes it). Without it nothing is
// written elsewhere and the error says so.
func WithFallback(w io.Writer) WriteOption { return func(c *writeConfig) { c.fallback = w } }

// WithRetry sets how often a failed write is tried in all (default 3) and the first
// delay between tries (default 200ms, doubling).
func WithRetry(attempts int, delay time.Duration) WriteOption {
	return func(c *writeConfig) { c.attempts, c.delay = max(1, attempts), delay }
}

// withWriteFile replaces the file writer (tests inject failures with it).
func withWriteFile(f func(string, func(io.Writer) error) error) WriteOption {
	return func(c *writeConfig) { c.writeFile = f }
}

// WriteError is a report that could not be written to its directory. When FellBack is
// true the Markdown report was written to the fallback writer (WithFallback; cmd passes
// standard output) instead.
type WriteError struct {
	Dir      string
	Err      error
	FellBack bool
}

func (e *WriteError) Error() string {
	msg := fmt.Sprintf("write report to %s: %v", e.Dir, e.Err)
	if e.FellBack {
		msg += " (the Markdown report was printed to standard output instead)"
	}
	return msg + "; make the directory writable or choose another output directory"
}

func (e *WriteError) Unwrap() error { return e.Err }

// InvalidInput marks the error as user-fixable (exit code 2): the output directory
// given by --output or outputDir cannot be written.
func (e *WriteError) InvalidInput() bool { return true }

// Write renders r and writes smile-report.md, smile-report.json, smile-report.sarif and
// smile-audit.log into dir, creating dir when missing (9.E4). Each file is replaced
// atomically; the audit log is streamed to its file, never held whole in memory. A failed write is retried; when it keeps failing the Markdown report is
// written to the fallback writer and a *WriteError is returned (9.E3).
func Write(dir string, r *Report, opts ...WriteOption) (Files, error) {
	cfg := writeConfig{attempts: 3, delay: 200 * time.Millisecond, writeFile: loop.WriteAtomicFunc}
	for _, o := range opts {
		o(&cfg)
	}
	md := RenderMarkdown(r)
	js, err := RenderJSON(r)
	if err != nil {
		return Files{}, err
	}
	sarif, err := RenderSARIF(r)
	if err != nil {
		return Files{}, err
	}
	files := Files{
		Markdown: filepath.Join(dir, MarkdownFile),
		JSON:     filepath.Join(dir, JSONFile),
		SARIF:    filepath.Join(dir, SARIFFile),
		Audit:    filepath.Join(dir, AuditFile),
	}
	data := func(b []byte) func(io.Writer) error {
		return func(w io.Writer) error { _, err := w.Write(b); return err }
	}
	contents := []struct {
		path string
		fill func(io.Writer) error
	}{
		{files.JSON, data(js)}, {files.SARIF, data(sarif)},
		{files.Audit, func(w io.Writer) error { return WriteAuditLog(w, r) }},
		{files.Markdown, data([]byte(md))},
	}

	b := backoff.NewExponentialBackOff()
	b.InitialInterval = cfg.delay
	b.RandomizationFactor = 0
	op := func() error {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("create directory: %w", err)
		}
		for _, c := range contents {
			if err := cfg.writeFile(c.path, c.fill); err != nil {
				return err
			}
		}
		return nil
	}
	var policy backoff.BackOff = backoff.WithMaxRetries(b, uint64(cfg.attempts-1))
	if cfg.delay <= 0 {
		policy = backoff.WithMaxRetries(&backoff.ZeroBackOff{}, uint64(cfg.attempts-1))
	}
	err = backoff.Retry(op, policy)
	if err == nil {
		return files, nil
	}
	werr := &WriteError{Dir: dir, Err: err}
	if cfg.fallback != nil {
		if _, ferr := io.WriteString(cfg.fallback, md); ferr == nil {
			werr.FellBack = true
		} else {
			werr.Err = errors.Join(err, fmt.Errorf("write report to fallback: %w", ferr))
		}
	}
	return Files{}, werr
}

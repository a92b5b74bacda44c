package loop

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Files of a run's state directory.
const (
	StateFile     = "state.json"
	StatePrevFile = "state.json.prev"
	IterationsDir = "iterations"
	ScenarioFile  = "scenario.json"
	LockFile      = ".smile.lock"
)

// SaveState writes st to dir/state.json atomically: a temp file in the same directory,
// fsync, the previous state.json kept as state.json.prev, rename, fsync of the directory.
// A crash at any point leaves either the old or the new state complete on disk.
func SaveState(dir string, st *State) error {
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return fmt.Errorf("encode state: %w", err)
	}
	path := filepath.Join(dir, StateFile)
	if _, err := os.Stat(path); err == nil {
		// keep the previous copy; a link is atomic and leaves state.json in place
		prev := filepath.Join(dir, StatePrevFile)
		_ = os.Remove(prev)
		if err := os.Link(path, prev); err != nil {
			if err := copyFile(path, prev); err != nil {
				return fmt.Errorf("keep previous state: %w", err)
			}
		}
	}
	return WriteAtomic(path, append(data, '\n'))
}

// LoadState reads dir/state.json to resume it, falling back to state.json.prev when the
// current copy is unreadable. It is strict: what ReadState tolerates with a warning (a
// mistyped field, another schema version) is an error here.
func LoadState(dir string) (*State, error) {
	st, _, err := readStateDir(dir, true)
	return st, err
}

// ReadState reads a run's saved state from dir (state.json, or state.json.prev when the
// current copy is unreadable) for re-rendering. It is tolerant: unknown fields, another
// schema version, a field of an unexpected type (skipped) and the spec's string form of
// "mentorResult" are accepted, each noted in warnings.
func ReadState(dir string) (*State, []string, error) {
	return readStateDir(dir, false)
}

func readStateDir(dir string, strict bool) (*State, []string, error) {
	path := filepath.Join(dir, StateFile)
	st, warns, err := readStateFile(path, strict)
	if err == nil {
		return st, warns, nil
	}
	prev := filepath.Join(dir, StatePrevFile)
	if st, w2, perr := readStateFile(prev, strict); perr == nil {
		if strict {
			return st, nil, nil
		}
		return st, append(w2, fmt.Sprintf("%s unreadable (%v); used %s", path, err, StatePrevFile)), nil
	}
	return nil, nil, err
}

func readStateFile(path string, strict bool) (*State, []string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if strict {
			err = fmt.Errorf("read state: %w", err)
		}
		return nil, nil, err
	}
	if !strict {
		return DecodeState(data)
	}
	var st State
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, nil, fmt.Errorf("decode state %s: %w", path, err)
	}
	if st.SchemaVersion != StateSchemaVersion {
		return nil, nil, fmt.Errorf("state %s has schema version %d, this build reads %d", path, st.SchemaVersion, StateSchemaVersion)
	}
	return &st, nil, nil
}

// DecodeState is ReadState for state.json's bytes.
func DecodeState(data []byte) (*State, []string, error) {
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, nil, fmt.Errorf("not valid JSON: %w", err)
	}
	var warns []string
	if hist, ok := raw["history"].([]any); ok {
		for _, h := range hist {
			it, ok := h.(map[string]any)
			if !ok {
				continue
			}
			if s, ok := it["mentorResult"].(string); ok {
				it["mentorResult"] = map[string]any{"notes": s}
			}
			if s, ok := it["studentResult"].(string); ok {
				it["studentResult"] = map[string]any{"raw": s}
			}
		}
		data, _ = json.Marshal(raw)
	}
	var st State
	if err := json.Unmarshal(data, &st); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			return nil, nil, err
		}
		// encoding/json skips the mistyped field and decodes the rest.
		warns = append(warns, fmt.Sprintf("ignored field %s: %v", te.Field, err))
	}
	if st.SchemaVersion != 0 && st.SchemaVersion != StateSchemaVersion {
		warns = append(warns, fmt.Sprintf("state schema version %d, this build knows %d: rendering what it understands", st.SchemaVersion, StateSchemaVersion))
	}
	return &st, warns, nil
}

// SaveIteration writes the human-readable record of one iteration, iterations/NNN.json.
func SaveIteration(dir string, it Iteration) error {
	d := filepath.Join(dir, IterationsDir)
	if err := os.MkdirAll(d, 0o755); err != nil {
		return fmt.Errorf("create iterations directory: %w", err)
	}
	data, err := json.MarshalIndent(it, "", "  ")
	if err != nil {
		return fmt.Errorf("encode iteration %d: %w", it.Iteration, err)
	}
	if err := WriteAtomic(filepath.Join(d, fmt.Sprintf("%03d.json", it.Iteration)), append(data, '\n')); err != nil {
		return err
	}
	return WriteAtomic(filepath.Join(d, fmt.Sprintf("%03d.md", it.Iteration)), []byte(iterationMarkdown(it)))
}

// iterationMarkdown is the iteration for a person reading the output directory.
func iterationMarkdown(it Iteration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Iteration %d\n\n", it.Iteration)
	fmt.Fprintf(&b, "- Started: %s\n", it.Started.Format(time.RFC3339))
	if !it.Ended.IsZero() {
		fmt.Fprintf(&b, "- Ended: %s (%s)\n", it.Ended.Format(time.RFC3339), it.Ended.Sub(it.Started).Round(time.Millisecond))
	}
	if it.Error != "" {
		fmt.Fprintf(&b, "- Error: %s\n", oneLine(it.Error))
	}
	if s := it.Student; s != nil {
		fmt.Fprintf(&b, "\n## Student: %s\n\n", orDefault(s.Status, "(no status)"))
		for _, kv := range [][2]string{{"Step", s.CurrentStep}, {"Trigger", string(s.Trigger)}, {"Problem", s.Problem},
			{"Question", s.QuestionForMentor}, {"Reason", s.Reason}, {"Summary", s.Summary}, {"Parse error", s.ParseError}} {
			if kv[1] != "" {
				fmt.Fprintf(&b, "- %s: %s\n", kv[0], oneLine(kv[1]))
			}
		}
		if len(s.Findings) > 0 {
			b.WriteString("\n### Stuck points\n\n")
			for _, f := range s.Findings {
				fmt.Fprintf(&b, "- line %d: %s", f.Line, oneLine(f.Problem))
				if f.Trigger != "" {
					fmt.Fprintf(&b, " (trigger %s)", f.Trigger)
				}
				b.WriteString("\n")
			}
		}
		if len(s.Commands) > 0 {
			b.WriteString("\n### Commands\n\n")
			for _, c := range s.Commands {
				fmt.Fprintf(&b, "- line %d: `%s` → exit %d", c.Line, oneLine(c.Command), c.ExitCode)
				if c.Background {
					b.WriteString(" (left running)")
				}
				if c.Summary != "" {
					b.WriteString(" — " + oneLine(c.Summary))
				}
				b.WriteString("\n")
			}
		}
	}
	if m := it.Mentor; m != nil {
		b.WriteString("\n## Mentor\n\n")
		b.WriteString(strings.TrimSpace(m.Notes) + "\n")
	}
	return b.String()
}

func oneLine(s string) string {
	return Clip(strings.Join(strings.Fields(strings.ReplaceAll(s, "`", "'")), " "), 300)
}

// WriteAtomic writes data to path through a synced temp file and a rename, then syncs
// the directory: a crash leaves the old or the new file complete. The one atomic file
// writer (state, iteration records, scenario, report files).
func WriteAtomic(path string, data []byte) error {
	return WriteAtomicFunc(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteAtomicFunc is WriteAtomic for content too large to hold in memory: fill streams
// it into the temp file (the audit log). When fill fails the old file stays.
func WriteAtomicFunc(path string, fill func(io.Writer) error) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	werr := fill(f)
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Chmod(tmp, 0o644); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
	return nil
}

func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return WriteAtomic(to, data)
}

package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// StateError is a state.json that cannot be read at all. The user fixes it by pointing
// at a run's output directory.
type StateError struct {
	Path string
	Err  error
}

func (e *StateError) Error() string {
	return fmt.Sprintf("read run state %s: %v; point --from at the output directory of a run (it holds %s)", e.Path, e.Err, loop.StateFile)
}

func (e *StateError) Unwrap() error { return e.Err }

// InvalidInput marks the error as user-fixable (exit code 2).
func (e *StateError) InvalidInput() bool { return true }

// ReadState reads a run's saved state from dir (state.json, or state.json.prev when the
// current copy is unreadable) for re-rendering. It is tolerant: unknown fields, another
// schema version, a field of an unexpected type (skipped) and the spec's string form of
// "mentorResult" are accepted, each noted in warnings.
func ReadState(dir string) (*loop.State, []string, error) {
	path := filepath.Join(dir, loop.StateFile)
	st, warns, err := readStateFile(path)
	if err == nil {
		return st, warns, nil
	}
	prev := filepath.Join(dir, loop.StatePrevFile)
	if st, w2, perr := readStateFile(prev); perr == nil {
		return st, append(w2, fmt.Sprintf("%s unreadable (%v); used %s", path, err, loop.StatePrevFile)), nil
	}
	return nil, nil, &StateError{Path: path, Err: err}
}

func readStateFile(path string) (*loop.State, []string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	return DecodeState(data)
}

// DecodeState is ReadState for state.json's bytes.
func DecodeState(data []byte) (*loop.State, []string, error) {
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
	var st loop.State
	if err := json.Unmarshal(data, &st); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			return nil, nil, err
		}
		// encoding/json skips the mistyped field and decodes the rest.
		warns = append(warns, fmt.Sprintf("ignored field %s: %v", te.Field, err))
	}
	if st.SchemaVersion != 0 && st.SchemaVersion != loop.StateSchemaVersion {
		warns = append(warns, fmt.Sprintf("state schema version %d, this build knows %d: rendering what it understands", st.SchemaVersion, loop.StateSchemaVersion))
	}
	return &st, warns, nil
}

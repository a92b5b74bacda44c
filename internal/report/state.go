package report

import (
	"fmt"
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

// ReadState reads a run's saved state from dir for re-rendering (loop.ReadState, the
// tolerant reader); a state that cannot be read at all is a StateError.
func ReadState(dir string) (*loop.State, []string, error) {
	st, warns, err := loop.ReadState(dir)
	if err != nil {
		return nil, nil, &StateError{Path: filepath.Join(dir, loop.StateFile), Err: err}
	}
	return st, warns, nil
}

package loop

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each forgery a tutorial's process could try against the wrapper API (security review
// #3): the run token reads the status and nothing else; a turn's token posts only that
// turn's result and dies with the turn; stop needs the current turn's token.
func TestServerRefusesForgedResultsAndStop(t *testing.T) {
	t.Parallel()
	stopped := 0
	s, err := NewServer(ServerOptions{Addr: "127.0.0.1", ContainerHost: "127.0.0.1", OnStop: func() { stopped++ }})
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	base := "http://" + s.Addr()
	run := s.Token()

	code, _ := call(t, "GET", base+"/api/status", run, "")
	assert.Equal(t, 200, code, "the run token reads the status")

	s.SetTurn(TurnStudent, 1, &APITask{Prompt: "p"})
	turn1 := s.Token()
	require.NotEqual(t, run, turn1, "a turn has its own token")
	code, _ = call(t, "POST", base+"/api/student/result", run, `{"status":"completed"}`)
	assert.Equal(t, 401, code, "the run token cannot post a result")
	code, _ = call(t, "POST", base+"/api/stop", run, "")
	assert.Equal(t, 401, code, "the run token cannot stop the run")
	code, _ = call(t, "POST", base+"/api/stop", "", "")
	assert.Equal(t, 401, code)
	code, _ = call(t, "POST", base+"/api/mentor/result", turn1, `{"notes":"forged"}`)
	assert.Equal(t, 409, code, "the Student's turn cannot post a Mentor result")
	code, _ = call(t, "POST", base+"/api/student/result", turn1, `{"status":"completed"}`)
	assert.Equal(t, 200, code, "the wrapper's own post")

	s.SetTurn(TurnWaiting, 1, nil)
	code, _ = call(t, "POST", base+"/api/student/result?iteration=1", turn1, `{"status":"other"}`)
	assert.Equal(t, 401, code, "a turn's token dies with its turn")
	s.SetTurn(TurnMentor, 1, &APITask{Prompt: "m"})
	turn2 := s.Token()
	require.NotEqual(t, turn1, turn2)
	code, _ = call(t, "POST", base+"/api/mentor/result", turn1, `{"notes":"forged"}`)
	assert.Equal(t, 401, code, "an earlier turn's token cannot post the next turn's result")
	code, _ = call(t, "POST", base+"/api/stop", turn1, "")
	assert.Equal(t, 401, code)
	assert.Equal(t, 0, stopped)
	code, _ = call(t, "POST", base+"/api/stop", turn2, "")
	assert.Equal(t, 200, code, "the wrapper of the current turn may stop the run")
	assert.Equal(t, 1, stopped)
}

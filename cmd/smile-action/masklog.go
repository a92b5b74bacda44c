package main

import (
	"io"
	"sync/atomic"

	"github.com/smile-loop/smile-loop/internal/redact"
)

// maskedLog is the stderr of the slog log with the run's secrets masked: slog writes
// each record in one Write, so masking each write masks each record whole. The masker
// starts with the environment's secrets and grows when a run knows more (the key
// proxy's run token).
type maskedLog struct {
	w io.Writer
	r atomic.Pointer[redact.Redactor]
}

func newMaskedLog(w io.Writer, getenv func(string) string) *maskedLog {
	m := &maskedLog{w: w}
	m.r.Store(redact.New(runSecrets(&env{getenv: getenv})...))
	return m
}

func (m *maskedLog) Write(p []byte) (int, error) {
	if _, err := m.w.Write(m.r.Load().Bytes(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// setLogMask makes the log mask r's secrets from now on.
func (e *env) setLogMask(r *redact.Redactor) {
	if e.logMask != nil {
		e.logMask.r.Store(r)
	}
}

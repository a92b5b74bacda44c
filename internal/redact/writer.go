package redact

import (
	"io"
	"sync"
)

// Masking a stream: secrets split across writes are masked like whole ones.

// Writer returns a writer that masks secrets before passing text to w, also when a
// secret is split across several writes. It holds back only a trailing part that could
// be the start of a secret; call Flush (or Close) at the end of the stream to write it.
// The returned value is a *Writer.
func (r *Redactor) Writer(w io.Writer) io.Writer { return r.NewWriter(w) }

// NewWriter is Writer with its concrete type.
func (r *Redactor) NewWriter(w io.Writer) *Writer { return &Writer{r: r, w: w} }

// Writer masks secrets in a stream. Safe for concurrent use.
type Writer struct {
	mu      sync.Mutex
	r       *Redactor
	w       io.Writer
	pending []byte
}

// Write masks p (with what earlier writes held back) and writes what is safe to write.
// It reports len(p) on success: the caller's bytes were all consumed.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.r.Empty() {
		if _, err := w.w.Write(p); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	buf := append(w.pending, p...)
	out, n := w.r.mask(nil, buf, false)
	w.pending = append(w.pending[:0:0], buf[n:]...)
	if len(out) > 0 {
		// Wrapped encodings and cut pieces are masked within what is written now.
		out = []byte(w.r.cuts(w.r.unwrap(string(out))))
		if _, err := w.w.Write(out); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Flush writes what is held back, masked.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.pending) == 0 {
		return nil
	}
	out := w.r.Bytes(w.pending)
	w.pending = nil
	_, err := w.w.Write(out)
	return err
}

// Close flushes. It does not close the underlying writer.
func (w *Writer) Close() error { return w.Flush() }

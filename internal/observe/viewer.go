package observe

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"net/http"
)

// viewerHTML is the live viewer: one self-contained page, no external assets.
//
//go:embed viewer.html
var viewerHTML []byte

// viewerCSP allows only the page's own inline script (by hash) and style, and WebSocket
// connections back to the same server.
var viewerCSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'; script-src " + scriptHash(viewerHTML)

// scriptHash returns the CSP source for the page's single inline script.
func scriptHash(page []byte) string {
	_, rest, ok := bytes.Cut(page, []byte("<script>"))
	if !ok {
		return "'none'"
	}
	script, _, ok := bytes.Cut(rest, []byte("</script>"))
	if !ok {
		return "'none'"
	}
	sum := sha256.Sum256(script)
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

func serveViewer(w http.ResponseWriter, _ *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", viewerCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	_, _ = w.Write(viewerHTML)
}

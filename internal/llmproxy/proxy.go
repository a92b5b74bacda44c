// Package llmproxy keeps provider API keys out of the learner container: an
// authenticated reverse proxy, listening only on the address the container reaches,
// that accepts a per-run token in place of the key and forwards to the real provider
// with the real key added.
package llmproxy

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/provider"
)

// Options configure a proxy.
type Options struct {
	Provider string // claude, codex or gemini: decides how the key is presented
	Upstream string // the provider's real base URL (e.g. https://api.anthropic.com)
	Key      string // the real credential; never leaves the orchestrator
	// KeyKind says how Key travels (internal/provider's credential table): an API key in
	// the provider's key header (the default), a gateway token or a Claude OAuth token
	// as Authorization: Bearer (the latter with anthropic-beta oauth-2025-04-20).
	KeyKind provider.Kind
	Token   string // per-run token the container uses instead of the key ("" generates one)
	Logger  *slog.Logger
	// Meter is the run's llm.budget: every answer's usage is added, and calls past the
	// budget are refused (nil: no budget).
	Meter *provider.Meter
}

// Proxy is a running key-holding reverse proxy.
type Proxy struct {
	opts     Options
	upstream *url.URL
	ln       net.Listener
	srv      *http.Server
	done     chan struct{}
}

// NewToken returns a random per-run token.
func NewToken() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("generate token: %w", err)
	}
	return "smile-run-" + hex.EncodeToString(b), nil
}

// Start listens on host (port chosen by the system) — give it the sandbox's HostAddr,
// never a wider address — and serves until ctx ends or Close.
func Start(ctx context.Context, host string, opts Options) (*Proxy, error) {
	switch opts.Provider {
	case config.ProviderClaude, config.ProviderCodex, config.ProviderGemini:
	default:
		return nil, fmt.Errorf("llm proxy: unknown provider %q", opts.Provider)
	}
	up, err := url.Parse(opts.Upstream)
	if err != nil || up.Scheme == "" || up.Host == "" {
		return nil, fmt.Errorf("llm proxy: upstream %q is not an absolute URL", opts.Upstream)
	}
	if opts.Token == "" {
		if opts.Token, err = NewToken(); err != nil {
			return nil, err
		}
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return nil, fmt.Errorf("llm proxy: listen on %s: %w", host, err)
	}
	p := &Proxy{opts: opts, upstream: up, ln: ln, done: make(chan struct{})}
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 30 * time.Second}
	go func() {
		defer close(p.done)
		_ = p.srv.Serve(ln)
	}()
	go func() {
		select {
		case <-ctx.Done():
			_ = p.Close()
		case <-p.done:
		}
	}()
	return p, nil
}

// Token is the per-run token containers authenticate with.
func (p *Proxy) Token() string { return p.opts.Token }

// Port is the port the proxy listens on.
func (p *Proxy) Port() int { return p.ln.Addr().(*net.TCPAddr).Port }

// BaseURL is the provider base URL as seen from a container that reaches the proxy's
// host as containerHost (e.g. host.docker.internal): the upstream's path is kept, so
// an OpenAI base of https://api.openai.com/v1 becomes http://HOST:PORT/v1.
func (p *Proxy) BaseURL(containerHost string) string {
	return "http://" + net.JoinHostPort(containerHost, strconv.Itoa(p.Port())) + strings.TrimRight(p.upstream.Path, "/")
}

// ContainerEnv is smile-wrapper's environment for reaching the proxy from a container
// that names the proxy's host containerHost: the proxy's URL and where the provider's
// CLI reads its base URL and key (the credential table's base-URL variable and CLI key
// variables: claude ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY; codex OPENAI_BASE_URL,
// OPENAI_API_KEY and CODEX_API_KEY; gemini GOOGLE_GEMINI_BASE_URL,
// google-gemini/gemini-cli#2899, and GEMINI_API_KEY). It holds no secret: the run
// token goes to the wrapper on standard input, and the CLI gets the wrapper's key gate
// and a placeholder, never the token (wrappers/wrapper/gate.go).
func (p *Proxy) ContainerEnv(containerHost string) map[string]string {
	spec, _ := provider.Lookup(p.opts.Provider)
	return map[string]string{
		"SMILE_PROXY_URL":      p.BaseURL(containerHost),
		"SMILE_PROXY_BASE_VAR": spec.BaseURLVar,
		"SMILE_PROXY_KEY_VARS": strings.Join(spec.CLIKeyVars, " "),
	}
}

// Close stops the proxy.
func (p *Proxy) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := p.srv.Shutdown(ctx)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// presentedToken finds the credential a client sent, wherever its SDK puts it.
func presentedToken(r *http.Request) string {
	if v := r.Header.Get("x-api-key"); v != "" {
		return v
	}
	if v := r.Header.Get("x-goog-api-key"); v != "" {
		return v
	}
	if v, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		return strings.TrimSpace(v)
	}
	return r.URL.Query().Get("key")
}

// ServeHTTP authenticates the run token, then forwards with the real key.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	got := presentedToken(r)
	if subtle.ConstantTimeCompare([]byte(got), []byte(p.opts.Token)) != 1 {
		p.opts.Logger.Warn("llm proxy: rejected request without the run token", "path", r.URL.Path)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"type":"error","error":{"type":"authentication_error","message":"smile-loop llm proxy: missing or wrong run token"}}`))
		return
	}
	if rel, ok := p.relPath(r); !ok || !allowed(p.opts.Provider, r.Method, rel) {
		p.refuse(w, r)
		return
	}
	if err := p.opts.Meter.Check(); err != nil {
		p.overBudget(w, err)
		return
	}
	model := ""
	if p.opts.Meter != nil {
		model = requestModel(r)
		if err := p.opts.Meter.Priced(model); err != nil {
			p.overBudget(w, err)
			return
		}
	}
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			out := pr.Out
			out.URL.Scheme, out.URL.Host = p.upstream.Scheme, p.upstream.Host
			out.URL.RawPath = "" // forward exactly the path that was checked
			out.Host = p.upstream.Host
			q := out.URL.Query()
			if q.Has("key") {
				q.Del("key")
				out.URL.RawQuery = q.Encode()
			}
			for _, h := range []string{"x-api-key", "x-goog-api-key", "Authorization"} {
				out.Header.Del(h)
			}
			if p.opts.Meter != nil {
				// the meter reads the answer's usage: let the transport ask for gzip and
				// unpack it, so the bytes it sees (and the CLI gets) are plain
				out.Header.Del("Accept-Encoding")
			}
			// "" (a local OpenAI-compatible server) adds nothing
			spec, _ := provider.Lookup(p.opts.Provider)
			kind := p.opts.KeyKind
			if kind == "" {
				kind = provider.KindAPIKey
			}
			provider.Credential{Kind: kind, Value: p.opts.Key}.Apply(spec, out.Header)
		},
		ModifyResponse: func(resp *http.Response) error {
			if p.opts.Meter != nil && resp.Body != nil {
				resp.Body = &usageTap{ReadCloser: resp.Body, provider: p.opts.Provider, meter: p.opts.Meter, model: model}
			}
			return nil
		},
		FlushInterval: -1, // stream server-sent events as they come
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			p.opts.Logger.Warn("llm proxy: upstream failed", "err", err)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadGateway)
			_, _ = fmt.Fprintf(w, `{"type":"error","error":{"type":"api_error","message":"smile-loop llm proxy: provider unreachable"}}`)
		},
	}
	rp.ServeHTTP(w, r)
}

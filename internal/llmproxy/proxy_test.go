package llmproxy

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type seen struct {
	mu   sync.Mutex
	reqs []*http.Request
	body []string
}

func upstream(t *testing.T, s *seen) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.reqs = append(s.reqs, r.Clone(context.Background()))
		s.body = append(s.body, string(b))
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"ok":true}`)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestProxyForwardsWithTheRealKeyOnly(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		provider string
		path     string
		present  func(r *http.Request, token string)
		check    func(t *testing.T, r *http.Request)
	}{
		{name: "claude x-api-key", provider: "claude", path: "/v1/messages",
			present: func(r *http.Request, tok string) { r.Header.Set("x-api-key", tok) },
			check: func(t *testing.T, r *http.Request) {
				assert.Equal(t, "REAL-KEY", r.Header.Get("x-api-key"))
				assert.Empty(t, r.Header.Get("Authorization"))
			}},
		{name: "codex bearer", provider: "codex", path: "/v1/responses",
			present: func(r *http.Request, tok string) { r.Header.Set("Authorization", "Bearer "+tok) },
			check: func(t *testing.T, r *http.Request) {
				assert.Equal(t, "Bearer REAL-KEY", r.Header.Get("Authorization"))
			}},
		{name: "gemini header", provider: "gemini", path: "/v1beta/models/gemini-2.5-pro:streamGenerateContent",
			present: func(r *http.Request, tok string) { r.Header.Set("x-goog-api-key", tok) },
			check: func(t *testing.T, r *http.Request) {
				assert.Equal(t, "REAL-KEY", r.Header.Get("x-goog-api-key"))
			}},
		{name: "gemini query key", provider: "gemini", path: "/v1beta/models/m:generateContent",
			present: func(r *http.Request, tok string) { r.URL.RawQuery = "alt=sse&key=" + tok },
			check: func(t *testing.T, r *http.Request) {
				assert.Empty(t, r.URL.Query().Get("key"))
				assert.Equal(t, "sse", r.URL.Query().Get("alt"))
				assert.Equal(t, "REAL-KEY", r.Header.Get("x-goog-api-key"))
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := &seen{}
			up := upstream(t, s)
			p, err := Start(context.Background(), "127.0.0.1", Options{Provider: tt.provider, Upstream: up.URL, Key: "REAL-KEY"})
			require.NoError(t, err)
			t.Cleanup(func() { _ = p.Close() })
			assert.True(t, strings.HasPrefix(p.Token(), "smile-run-"))

			req, _ := http.NewRequest(http.MethodPost, p.BaseURL("127.0.0.1")+tt.path, strings.NewReader(`{"model":"m"}`))
			tt.present(req, p.Token())
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			assert.Equal(t, http.StatusOK, resp.StatusCode)
			assert.JSONEq(t, `{"ok":true}`, string(body))
			require.Len(t, s.reqs, 1)
			assert.Equal(t, tt.path, s.reqs[0].URL.Path)
			assert.Equal(t, `{"model":"m"}`, s.body[0])
			tt.check(t, s.reqs[0])
			for k, v := range s.reqs[0].Header {
				assert.NotContains(t, strings.Join(v, " "), p.Token(), "header %s leaks the run token", k)
			}
		})
	}
}

func TestProxyRejectsRequestsWithoutTheRunToken(t *testing.T) {
	t.Parallel()
	s := &seen{}
	up := upstream(t, s)
	p, err := Start(context.Background(), "127.0.0.1", Options{Provider: "claude", Upstream: up.URL, Key: "REAL-KEY", Token: "run-token"})
	require.NoError(t, err)
	t.Cleanup(func() { _ = p.Close() })
	for _, tok := range []string{"", "wrong", "run-toke", "REAL-KEY"} {
		req, _ := http.NewRequest(http.MethodPost, p.BaseURL("127.0.0.1")+"/v1/messages", nil)
		if tok != "" {
			req.Header.Set("x-api-key", tok)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, tok)
		assert.Contains(t, string(body), "missing or wrong run token")
	}
	assert.Empty(t, s.reqs, "nothing reached the provider")
}

func TestContainerEnvCarriesNoSecret(t *testing.T) {
	t.Parallel()
	tests := []struct {
		provider, upstream, path, baseVar, keyVars string
	}{
		{provider: "claude", upstream: "https://api.anthropic.com", baseVar: "ANTHROPIC_BASE_URL", keyVars: "ANTHROPIC_API_KEY"},
		{provider: "codex", upstream: "https://api.openai.com/v1", path: "/v1", baseVar: "OPENAI_BASE_URL", keyVars: "OPENAI_API_KEY CODEX_API_KEY"},
		{provider: "gemini", upstream: "https://generativelanguage.googleapis.com", baseVar: "GOOGLE_GEMINI_BASE_URL", keyVars: "GEMINI_API_KEY"},
	}
	for _, tt := range tests {
		t.Run(tt.provider, func(t *testing.T) {
			t.Parallel()
			p, err := Start(context.Background(), "127.0.0.1", Options{Provider: tt.provider, Upstream: tt.upstream, Key: "REAL-KEY", Token: "tok"})
			require.NoError(t, err)
			t.Cleanup(func() { _ = p.Close() })
			env := p.ContainerEnv("host.docker.internal")
			assert.Equal(t, map[string]string{
				"SMILE_PROXY_URL":      p.BaseURL("host.docker.internal"),
				"SMILE_PROXY_BASE_VAR": tt.baseVar,
				"SMILE_PROXY_KEY_VARS": tt.keyVars,
			}, env)
			assert.True(t, strings.HasSuffix(env["SMILE_PROXY_URL"], ":"+strconv.Itoa(p.Port())+tt.path), env["SMILE_PROXY_URL"])
			for _, v := range env {
				assert.NotContains(t, v, "REAL-KEY")
				assert.NotContains(t, v, "tok")
			}
		})
	}
}

func TestStartRejectsBadOptions(t *testing.T) {
	t.Parallel()
	_, err := Start(context.Background(), "127.0.0.1", Options{Provider: "none", Upstream: "https://x"})
	assert.ErrorContains(t, err, "unknown provider")
	_, err = Start(context.Background(), "127.0.0.1", Options{Provider: "claude", Upstream: "api.anthropic.com"})
	assert.ErrorContains(t, err, "not an absolute URL")
}

func TestProxyStopsWithItsContext(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	p, err := Start(ctx, "127.0.0.1", Options{Provider: "claude", Upstream: "http://127.0.0.1:1", Key: "k"})
	require.NoError(t, err)
	cancel()
	<-p.done
	_, err = http.Get(p.BaseURL("127.0.0.1"))
	assert.Error(t, err)
}

func TestProxyToAKeylessLocalServerSendsNoCredentials(t *testing.T) {
	t.Parallel()
	s := &seen{}
	up := upstream(t, s)
	p, err := Start(context.Background(), "127.0.0.1", Options{Provider: "codex", Upstream: up.URL + "/v1"})
	require.NoError(t, err)
	t.Cleanup(func() { _ = p.Close() })
	req, _ := http.NewRequest(http.MethodPost, p.BaseURL("127.0.0.1")+"/chat/completions", strings.NewReader(`{}`))
	req.Header.Set("Authorization", "Bearer "+p.Token())
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	require.Len(t, s.reqs, 1)
	assert.Equal(t, "/v1/chat/completions", s.reqs[0].URL.Path)
	assert.Empty(t, s.reqs[0].Header.Get("Authorization"))
}

package llmproxy

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The run token buys inference only (security review #4): batches, files, admin and
// organization APIs never reach the provider with the real key.
func TestProxyForwardsOnlyInferenceEndpoints(t *testing.T) {
	t.Parallel()
	type call struct {
		method, path string
		ok           bool
	}
	tests := map[string]struct {
		basePath string
		calls    []call
	}{
		"claude": {calls: []call{
			{"POST", "/v1/messages?beta=true", true},
			{"POST", "/v1/messages/count_tokens?beta=true", true},
			{"POST", "/v1/messages/batches", false},
			{"GET", "/v1/messages/batches", false},
			{"GET", "/v1/files", false},
			{"DELETE", "/v1/files/file_1", false},
			{"GET", "/v1/organizations/me/api_keys", false},
			{"GET", "/v1/messages", false},
			{"POST", "/v1/messages/../files", false},
			{"POST", "/v1/models", false},
		}},
		"codex": {basePath: "/v1", calls: []call{
			{"POST", "/v1/responses", true},
			{"POST", "/v1/chat/completions", true},
			{"GET", "/v1/models", true},
			{"POST", "/v1/batches", false},
			{"POST", "/v1/files", false},
			{"GET", "/v1/organization/admin_api_keys", false},
			{"POST", "/v1/fine_tuning/jobs", false},
			{"DELETE", "/v1/responses", false},
			{"POST", "/responses", false}, // outside the upstream's base path
		}},
		"gemini": {calls: []call{
			{"POST", "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse", true},
			{"POST", "/v1beta/models/gemini-2.5-flash:generateContent", true},
			{"POST", "/v1beta/models/gemini-2.5-flash:countTokens", true},
			{"POST", "/v1beta/files", false},
			{"POST", "/upload/v1beta/files", false},
			{"POST", "/v1beta/cachedContents", false},
			{"POST", "/v1beta/models/gemini-2.5-pro:batchGenerateContent", false},
			{"POST", "/v1beta/tunedModels", false},
			{"GET", "/v1beta/models/gemini-2.5-pro:generateContent", false},
		}},
	}
	for provider, tt := range tests {
		t.Run(provider, func(t *testing.T) {
			t.Parallel()
			s := &seen{}
			up := upstream(t, s)
			p, err := Start(context.Background(), "127.0.0.1", Options{Provider: provider, Upstream: up.URL + tt.basePath, Key: "REAL-KEY"})
			require.NoError(t, err)
			t.Cleanup(func() { _ = p.Close() })
			origin := "http://" + p.ln.Addr().String()
			forwarded := 0
			for _, c := range tt.calls {
				req, _ := http.NewRequest(c.method, origin+c.path, strings.NewReader(`{}`))
				req.Header.Set("x-api-key", p.Token())
				resp, err := http.DefaultClient.Do(req)
				require.NoError(t, err)
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if c.ok {
					forwarded++
					assert.Equal(t, http.StatusOK, resp.StatusCode, "%s %s", c.method, c.path)
				} else {
					assert.Equal(t, http.StatusForbidden, resp.StatusCode, "%s %s", c.method, c.path)
					assert.Contains(t, string(body), "permission_error")
				}
			}
			s.mu.Lock()
			defer s.mu.Unlock()
			assert.Len(t, s.reqs, forwarded, "only the allowed calls reach the provider")
		})
	}
}

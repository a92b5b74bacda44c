package llmproxy

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/provider"
)

// The proxy presents each kind of credential of the credential table the way it
// travels: a Claude subscription token (CLAUDE_CODE_OAUTH_TOKEN) as Authorization:
// Bearer with anthropic-beta oauth-2025-04-20 added to the CLI's own flags (what Claude
// Code sends with it; see paude-proxy's bearer route, bbrowning/paude#251, and
// snipeship/ccflare#58), a gateway token (ANTHROPIC_AUTH_TOKEN) as Bearer alone, an API
// key in x-api-key. The claude CLI in the container always sends the run token as its
// key.
func TestProxyPresentsEachCredentialKind(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		kind       provider.Kind
		wantAuth   string
		wantKey    string
		wantBetaOf string
	}{
		{kind: provider.KindAPIKey, wantKey: "REAL"},
		{kind: provider.KindToken, wantAuth: "Bearer REAL"},
		{kind: provider.KindOAuth, wantAuth: "Bearer REAL", wantBetaOf: "claude-code-20250219,oauth-2025-04-20"},
	} {
		t.Run(string(tt.kind), func(t *testing.T) {
			t.Parallel()
			s := &seen{}
			up := upstream(t, s)
			p, err := Start(context.Background(), "127.0.0.1", Options{Provider: "claude", Upstream: up.URL, Key: "REAL", KeyKind: tt.kind, Token: "run-token"})
			require.NoError(t, err)
			t.Cleanup(func() { _ = p.Close() })
			req, _ := http.NewRequest(http.MethodPost, p.BaseURL("127.0.0.1")+"/v1/messages", nil)
			req.Header.Set("x-api-key", p.Token())
			req.Header.Set("anthropic-beta", "claude-code-20250219")
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			resp.Body.Close()
			require.Len(t, s.reqs, 1)
			got := s.reqs[0].Header
			assert.Equal(t, tt.wantAuth, got.Get("Authorization"))
			assert.Equal(t, tt.wantKey, got.Get("x-api-key"))
			if tt.wantBetaOf != "" {
				assert.Equal(t, tt.wantBetaOf, got.Get("anthropic-beta"))
			} else {
				assert.Equal(t, "claude-code-20250219", got.Get("anthropic-beta"))
			}
		})
	}
}

package llmproxy

import (
	"net/http"
	"regexp"
	"strings"

	"github.com/smile-loop/smile-loop/internal/config"
)

// The inference endpoints each CLI calls through its base URL; everything else (batches,
// files, admin and organization APIs, fine-tuning) is refused, so the run token cannot
// be used as a general key. Sources:
//   - claude: Claude Code's LLM-gateway requirements (docs.anthropic.com, "LLM gateway
//     configuration": the gateway exposes /v1/messages and /v1/messages/count_tokens;
//     Claude Code appends ?beta=true).
//   - codex: codex-rs (openai/codex) posts {base}/responses (wire_api "responses") or
//     {base}/chat/completions (wire_api "chat") and lists {base}/models.
//   - gemini: @google/genai, used by gemini-cli, posts
//     {base}/v1beta/models/{model}:streamGenerateContent, :generateContent,
//     :countTokens and :embedContent.
var (
	claudePaths = map[string]bool{"/v1/messages": true, "/v1/messages/count_tokens": true}
	codexPaths  = map[string]bool{"/responses": true, "/chat/completions": true}
	geminiPath  = regexp.MustCompile(`^/(v1|v1beta)/models/[A-Za-z0-9._-]+:(generateContent|streamGenerateContent|countTokens|embedContent)$`)
)

// allowed reports whether method and path (relative to the upstream's base path) are an
// inference call of provider.
func allowed(provider, method, path string) bool {
	if strings.Contains(path, "..") || strings.Contains(path, "//") {
		return false
	}
	switch provider {
	case config.ProviderClaude:
		return method == http.MethodPost && claudePaths[path]
	case config.ProviderCodex:
		path = strings.TrimPrefix(path, "/v1") // an upstream given without /v1
		switch method {
		case http.MethodPost:
			return codexPaths[path]
		case http.MethodGet:
			return path == "/models"
		}
		return false
	case config.ProviderGemini:
		return method == http.MethodPost && geminiPath.MatchString(path)
	}
	return false
}

// relPath is the request path below the upstream's base path ("" when it is not below).
func (p *Proxy) relPath(r *http.Request) (string, bool) {
	base := strings.TrimRight(p.upstream.Path, "/")
	rel, ok := strings.CutPrefix(r.URL.Path, base)
	if !ok || !strings.HasPrefix(rel, "/") {
		return "", false
	}
	return rel, true
}

// refuse answers a call that is not an inference endpoint, in the provider's error shape.
func (p *Proxy) refuse(w http.ResponseWriter, r *http.Request) {
	p.opts.Logger.Warn("llm proxy: refused a call that is not an inference endpoint", "method", r.Method, "path", r.URL.Path)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusForbidden)
	_, _ = w.Write([]byte(`{"type":"error","error":{"type":"permission_error","message":"smile-loop llm proxy: only the provider's inference endpoints are forwarded"}}`))
}

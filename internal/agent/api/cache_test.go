package api

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/loop/looptest"
)

// promptCache models Anthropic's prompt cache as documented
// (docs.claude.com/en/docs/build-with-claude/prompt-caching): the prefix is tools,
// system, then message blocks; a block with cache_control writes the prefix up to it
// (when it is at least 1,024 tokens); a request reads the longest cached prefix ending
// at a block boundary up to 20 blocks before one of its breakpoints. usage.input_tokens
// is what follows the last breakpoint, cache_creation_input_tokens what the request
// wrote, cache_read_input_tokens what it read. Tokens are bytes/4 here.
type promptCache struct {
	mu      sync.Mutex
	written map[[32]byte]bool
}

const minCacheTokens = 1024

func (c *promptCache) usage(req map[string]any) fakeUsage {
	var blocks []map[string]any
	for _, t := range list(req, "tools") {
		blocks = append(blocks, obj(t))
	}
	for _, s := range list(req, "system") {
		blocks = append(blocks, obj(s))
	}
	for _, m := range list(req, "messages") {
		for _, b := range list(obj(m), "content") {
			blocks = append(blocks, obj(b))
		}
	}
	h := sha256.New()
	var (
		hashes      [][32]byte
		tokens      []int // tokens up to and including block i
		breakpoints []int
		total       int
	)
	for i, b := range blocks {
		if b["cache_control"] != nil {
			breakpoints = append(breakpoints, i)
		}
		clean := map[string]any{}
		for k, v := range b {
			if k != "cache_control" {
				clean[k] = v
			}
		}
		raw, _ := json.Marshal(clean)
		h.Write(raw)
		var sum [32]byte
		copy(sum[:], h.Sum(nil))
		hashes = append(hashes, sum)
		total += len(raw) / 4
		tokens = append(tokens, total)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.written == nil {
		c.written = map[[32]byte]bool{}
	}
	read := 0
	for _, bp := range breakpoints {
		for j := bp; j >= 0 && j >= bp-20; j-- {
			if c.written[hashes[j]] {
				read = max(read, tokens[j])
				break
			}
		}
	}
	write := 0
	for _, bp := range breakpoints {
		if tokens[bp] >= minCacheTokens && !c.written[hashes[bp]] {
			c.written[hashes[bp]] = true
			write = max(write, tokens[bp])
		}
	}
	write = max(write-read, 0)
	return fakeUsage{In: total, CacheRead: read, CacheWrite: write, Out: 20}
}

// The client marks the stable prefix and the newest message, so from the second step
// on each request reads the history the previous one wrote; the audit trail records the
// cached tokens apart.
func TestAnthropicPromptCachingReadsThePreviousStep(t *testing.T) {
	t.Parallel()
	srv := newModelServer(t, "anthropic", longBrain(6))
	pc := &promptCache{}
	srv.cache = pc
	prompt := "Tutorial:\n" + strings.Repeat("Install the tools, then run the server. ", 200)
	res, err := NewStudent(Options{Client: clientFor("anthropic", srv.URL, RetryPolicy{}), Standard: "claude-sonnet-5-5"}).
		Attempt(context.Background(), loop.StudentTask{Iteration: 1, Prompt: prompt, Behavior: behavior(), Sandbox: looptest.NewHostSandbox(t)})
	require.NoError(t, err)
	require.Len(t, res.LLMCalls, 7)
	assert.Zero(t, res.LLMCalls[0].CachedTokensIn, "the first call writes the cache")
	for i, c := range res.LLMCalls[1:] {
		assert.Greater(t, c.CachedTokensIn, c.TokensIn/2, "call %d reads most of its prompt from the cache", i+2)
	}
	body := string(srv.views()[1].Body)
	assert.Equal(t, 4, strings.Count(body, `"cache_control":{"type":"ephemeral"}`), "four breakpoints: last tool, system, first and newest message")
}

// BenchmarkInputTokensBilledPerIteration runs one Student iteration of 20 commands
// (each with 6 KB of output) against the caching fake, with and without cache
// breakpoints, and reports the input tokens sent and the input billed in uncached-token
// equivalents (Anthropic: cache reads 0.1x, cache writes 1.25x).
func BenchmarkInputTokensBilledPerIteration(b *testing.B) {
	for _, caching := range []bool{false, true} {
		b.Run(fmt.Sprintf("caching=%v", caching), func(b *testing.B) {
			var sent, billed, calls float64
			for b.Loop() {
				srv := newBenchServer(b, longBrain(20))
				srv.cache = &promptCache{}
				c := clientFor("anthropic", srv.URL, RetryPolicy{}).(*Anthropic)
				c.noCache = !caching
				res, err := NewStudent(Options{Client: c, Standard: "claude-sonnet-5-5"}).Attempt(context.Background(),
					loop.StudentTask{Iteration: 1, Prompt: "Tutorial ...", Behavior: behavior(), Sandbox: looptest.NewHostSandbox(b)})
				if err != nil || res.Status != loop.StudentCompleted {
					b.Fatalf("attempt: %v %s", err, res.Status)
				}
				srv.Close()
				u := srv.totals()
				sent += float64(u.In)
				billed += float64(u.In-u.CacheRead-u.CacheWrite) + 0.1*float64(u.CacheRead) + 1.25*float64(u.CacheWrite)
				calls += float64(len(res.LLMCalls))
			}
			n := float64(b.N)
			b.ReportMetric(sent/n, "input-tokens/iteration")
			b.ReportMetric(billed/n, "billed-input-tokens/iteration")
			b.ReportMetric(calls/n, "calls/iteration")
		})
	}
}

package cli

import (
	"context"
	"fmt"
	"sync"

	"github.com/smile-loop/smile-loop/internal/agent/api"
	"github.com/smile-loop/smile-loop/internal/config"
	"github.com/smile-loop/smile-loop/internal/llmproxy"
	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/provider"
)

// New builds the CLI runtime's Student and Mentor for cfg (llmRuntime "cli"). The
// provider credential comes from the credential table (api.ResolveEndpoint); it
// stays in the orchestrator: on the first attempt a key-holding proxy starts on the
// sandbox's HostAddr and the CLIs get its URL and a per-run token instead. Close the
// Student when the run ends to stop the proxy. The run token is a secret of the run:
// pass Student.Secrets() to the loop's masking. base carries the options the config does
// not decide (Logger, Install, timeouts); Provider and the models come from cfg.
//
// The codex Mentor is the api runtime's Mentor (read_file, list_dir, fetch_url only):
// the codex CLI reads files only by running shell commands, so it cannot be a
// research-only Mentor (headless.ErrNoCodexMentor).
func New(cfg config.Config, getenv func(string) string, base Options) (*Student, loop.Mentor, error) {
	// the credential stays here; the CLI reaches the provider through the proxy
	ep, err := api.ResolveEndpoint(cfg.LLMProvider, config.RuntimeCLI, cfg.LLM, getenv)
	if err != nil {
		return nil, nil, err
	}
	token, err := llmproxy.NewToken()
	if err != nil {
		return nil, nil, err
	}
	meter := provider.NewMeter(cfg.LLM.Budget) // llm.budget: the proxy meters every CLI request
	p := &proxy{containerHost: loop.ContainerHost, opts: llmproxy.Options{Provider: cfg.LLMProvider, Upstream: ep.BaseURL,
		Key: ep.Credential.Value, KeyKind: ep.Credential.Kind, Token: token, Logger: base.Logger, Meter: meter}}
	opts := base
	opts.Provider, opts.StudentModel, opts.MentorModel = cfg.LLMProvider, cfg.LLM.Models.Standard, cfg.LLM.Models.Powerful
	s := NewStudent(opts)
	s.proxy = p
	if cfg.LLMProvider == config.ProviderCodex {
		_, am, err := api.NewWithMeter(cfg, getenv, base.Logger, meter)
		if err != nil {
			return nil, nil, err
		}
		return s, am, nil
	}
	m := NewMentor(opts)
	m.proxy = p
	return s, m, nil
}

// proxy starts the key-holding proxy once, where the sandbox's container reaches the host.
type proxy struct {
	containerHost string // how the container names the host (host.docker.internal)
	opts          llmproxy.Options
	mu            sync.Mutex
	p             *llmproxy.Proxy
}

// env returns the wrapper's environment for reaching the proxy and the run token.
func (x *proxy) env(ctx context.Context, sb loop.Sandbox) (map[string]string, string, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.p == nil {
		host, err := sb.HostAddr(ctx)
		if err != nil {
			return nil, "", fmt.Errorf("llm proxy address: %w", err)
		}
		// Not tied to ctx (one attempt): the proxy serves the whole run until Close.
		p, err := llmproxy.Start(context.Background(), host, x.opts)
		if err != nil {
			return nil, "", err
		}
		x.p = p
	}
	return x.p.ContainerEnv(x.containerHost), x.p.Token(), nil
}

// overBudget returns the budget error once the run's llm.budget is spent: the loop ends
// the run as budget_exceeded instead of reading the refused CLI's output as a blocker.
func (x *proxy) overBudget() error {
	if x == nil {
		return nil
	}
	return x.opts.Meter.Check()
}

func (x *proxy) close() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.p == nil {
		return nil
	}
	err := x.p.Close()
	x.p = nil
	return err
}

// Close stops the key-holding proxy (shared with the Mentor).
func (s *Student) Close() error {
	if s.proxy == nil {
		return nil
	}
	return s.proxy.close()
}

// Secrets are the values to mask in everything the run writes: the run token the CLIs
// use as their key.
func (s *Student) Secrets() []string {
	if s.proxy == nil {
		return nil
	}
	return []string{s.proxy.opts.Token}
}

package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// Mentor is the native-runtime Mentor: the powerful model with read-only tools. It can
// read files in the container but has no tool that writes or runs commands (spec 6,
// mentor capabilities); its answer is plain-text notes.
type Mentor struct {
	opts  Options
	fetch *http.Client
}

var _ loop.Mentor = (*Mentor)(nil)

// NewMentor returns a Mentor over opts.Client.
func NewMentor(opts Options) *Mentor {
	return &Mentor{opts: opts.withDefaults(), fetch: newFetchClient(opts.AllowPrivateFetch)}
}

// maxNotes bounds the notes (6.E2: about 2000 tokens).
const maxNotes = 8000

const mentorSystem = `You are the Mentor in smile-loop. A student following a tutorial is stuck.
You may read files (read_file, list_dir) in the student's container and public web pages
(fetch_url); you cannot change anything or run commands. When ready, call give_notes with concise plain-text notes (or simply answer
with the notes as text). Set unresolvable when the blocker cannot be solved from the tutorial
and public information, or needs a paid service.`

type giveNotesArgs struct {
	Notes        string `json:"notes" jsonschema:"description=Plain-text notes for the student's next attempt"`
	Unresolvable bool   `json:"unresolvable,omitempty" jsonschema:"description=True when the blocker appears unresolvable (or needs a paid service)"`
}

// Advise implements loop.Mentor.
func (m *Mentor) Advise(ctx context.Context, task loop.MentorTask) (loop.MentorResult, error) {
	var res loop.MentorResult
	done := false
	tools := []Tool{
		NewTool("give_notes", "Give your notes to the student and end the consultation.", func(_ context.Context, a giveNotesArgs) (string, error) {
			if strings.TrimSpace(a.Notes) == "" {
				return "", errors.New("notes are empty")
			}
			res.Notes, res.Unresolvable, done = a.Notes, a.Unresolvable, true
			return "notes delivered", nil
		}),
	}
	if !m.opts.NoWeb {
		tools = append(tools, NewTool("fetch_url", "Read a public web page (documentation, READMEs, Q&A) as text.", fetchURL(m.fetch)))
	}
	if task.Sandbox != nil {
		sb := task.Sandbox
		tools = append(tools,
			NewTool("read_file", "Read a file in the student's container (up to 64 KiB).", func(ctx context.Context, a readFileArgs) (string, error) {
				data, err := sb.ReadFile(ctx, containerPath(a.Path), 64<<10)
				if err != nil {
					return "", fmt.Errorf("read %s: %w", a.Path, err)
				}
				return string(data), nil
			}),
			NewTool("list_dir", "List a directory in the student's container.", func(ctx context.Context, a listDirArgs) (string, error) {
				r, err := sb.Exec(ctx, loop.ExecRequest{Command: listCommand(a.Path), Timeout: 30 * time.Second})
				if err != nil {
					return "", fmt.Errorf("sandbox: %w", err)
				}
				if r.ExitCode != 0 {
					return "", fmt.Errorf("list %s: %s", a.Path, strings.TrimSpace(r.Stderr))
				}
				return loop.ClipMiddle(r.Stdout, 8000), nil
			}),
		)
	}
	conv := &conversation{
		client: m.opts.Client, agent: "mentor", model: m.opts.Powerful, tier: tierPowerful, system: mentorSystem,
		tools: NewRegistry(tools...), maxTokens: m.opts.MaxTokens.Powerful, callTimeout: m.opts.CallTimeout, meter: m.opts.Meter,
		msgs: []Message{{Role: RoleUser, Parts: []Part{{Text: task.Prompt}}}},
	}
	if m.opts.ContextTokenBudget > 0 {
		conv.compactor = &compactor{client: m.opts.Client, model: m.opts.Fast, budget: m.opts.ContextTokenBudget, maxTokens: m.opts.MaxTokens.Fast, meter: m.opts.Meter}
	}
	err := m.run(ctx, conv, &done, &res)
	res.LLMCalls = conv.calls
	if len(res.Notes) > maxNotes {
		res.Notes = res.Notes[:maxNotes] + "\n[notes truncated]"
	}
	return res, err
}

func (m *Mentor) run(ctx context.Context, conv *conversation, done *bool, res *loop.MentorResult) error {
	consecutive := 0
	for steps := 0; ; {
		resp, err := conv.next(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if fatal(err) {
				return err
			}
			// 6.E1: retried in the transport; a Mentor that cannot be reached makes the
			// blocker unresolvable, with the provider's message.
			res.Notes = "The mentor could not be consulted: " + err.Error()
			res.Unresolvable = true
			return nil
		}
		calls := resp.Message.ToolCalls()
		if len(calls) == 0 {
			if text := strings.TrimSpace(resp.Message.Text()); text != "" {
				res.Notes = text
				return nil
			}
			consecutive++
		}
		results, err := conv.callTools(ctx, calls, &steps, &consecutive, func() bool { return *done })
		if err != nil {
			return err
		}
		if *done {
			return nil
		}
		if consecutive >= m.opts.MaxConsecutiveErrors || steps >= m.opts.MaxSteps {
			res.Notes = "The mentor found no answer within its bounds; the blocker appears unresolvable from the tutorial alone."
			res.Unresolvable = true
			return nil
		}
		if len(results) == 0 {
			conv.reply(Part{Text: "Answer with your notes for the student."})
			continue
		}
		conv.reply(results...)
	}
}

package headless

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
)

// clis.json is the table of the pinned CLIs: version, accepted flags, exit behaviour and
// stream events, each with the source it was read from.
//
//go:embed clis.json
var clisJSON []byte

// CLISpec is one pinned CLI as clis.json records it.
type CLISpec struct {
	Provider   string `json:"provider"`
	Package    string `json:"package"`
	Version    string `json:"version"`
	Why        string `json:"why"`
	Parser     string `json:"parser"` // commander (claude), clap (codex), yargs (gemini)
	UsageLine  string `json:"usageLine"`
	Subcommand string `json:"subcommand,omitempty"` // codex: exec
	PromptFlag string `json:"promptFlag,omitempty"` // gemini: -p takes the prompt
	Flags      []Flag `json:"flags"`
	MustNotUse []struct {
		Flag string `json:"flag"`
		Why  string `json:"why"`
	} `json:"mustNotUse"`
	Requires     []Requirement       `json:"requires,omitempty"`
	Exits        []Exit              `json:"exits"`
	Events       map[string][]string `json:"events"` // event type → fields it always has
	EventsSource string              `json:"eventsSource"`
}

// Flag is one accepted option. Value: none (a switch), one, optional or variadic
// (commander's <x...>: takes every following word that is not an option).
type Flag struct {
	Name       string   `json:"name"`
	Short      string   `json:"short,omitempty"`
	Alias      string   `json:"alias,omitempty"`
	Value      string   `json:"value"`
	Usage      string   `json:"usage,omitempty"` // how the CLI names it in errors
	Choices    []string `json:"choices,omitempty"`
	Deprecated string   `json:"deprecated,omitempty"`
	Source     string   `json:"source"`
}

// Requirement: when Flag has Value, Needs must be given too, or the CLI exits with Kind.
type Requirement struct {
	Flag  string `json:"flag"`
	Value string `json:"value"`
	Needs string `json:"needs"`
	Kind  string `json:"kind"`
}

// Exit is how the CLI ends on one kind of failure: the stream it writes, its exit code
// and the message (with {flag}, {name}, {value}, {usage}, {choices}, {quotedChoices},
// {usageLine} placeholders); Help says the help text follows the message.
type Exit struct {
	Kind     string `json:"kind"` // unknown_flag, bad_value, prompt_conflict, missing_auth, untrusted_workspace
	Stream   string `json:"stream"`
	ExitCode int    `json:"exitCode"`
	Message  string `json:"message"`
	Help     bool   `json:"help"`
	Source   string `json:"source"`
}

// Exit kinds.
const (
	ExitUnknownFlag        = "unknown_flag"
	ExitBadValue           = "bad_value"
	ExitPromptConflict     = "prompt_conflict"
	ExitMissingAuth        = "missing_auth"
	ExitUntrustedWorkspace = "untrusted_workspace"
)

var specs = func() map[string]CLISpec {
	var doc struct {
		CLIs []CLISpec `json:"clis"`
	}
	if err := json.Unmarshal(clisJSON, &doc); err != nil {
		panic("headless: clis.json: " + err.Error())
	}
	m := map[string]CLISpec{}
	for _, c := range doc.CLIs {
		m[c.Provider] = c
	}
	return m
}()

// Spec returns the pinned CLI of a provider.
func Spec(provider string) (CLISpec, bool) {
	s, ok := specs[provider]
	return s, ok
}

// Rejection is a command line the CLI refuses, with what it prints and its exit code.
type Rejection struct {
	Exit
	Text string // the message as printed, placeholders filled
}

func (r *Rejection) Error() string { return r.Text }

// ExitFor returns the CLI's exit of a kind, with the message's placeholders filled.
func (s CLISpec) ExitFor(kind string, vars map[string]string) (Rejection, bool) {
	for _, e := range s.Exits {
		if e.Kind != kind {
			continue
		}
		text := strings.ReplaceAll(e.Message, "{usageLine}", s.UsageLine)
		for k, v := range vars {
			text = strings.ReplaceAll(text, "{"+k+"}", v)
		}
		return Rejection{Exit: e, Text: text}, true
	}
	return Rejection{}, false
}

func (s CLISpec) lookup(arg string) (Flag, bool) {
	for _, f := range s.Flags {
		if arg == f.Name || (f.Short != "" && arg == f.Short) || (f.Alias != "" && arg == f.Alias) {
			return f, true
		}
	}
	if s.Parser == "yargs" && strings.HasPrefix(arg, "--") {
		// yargs accepts the camelCase form of a dashed option (camel-case-expansion).
		for _, f := range s.Flags {
			if arg == "--"+camel(strings.TrimPrefix(f.Name, "--")) {
				return f, true
			}
		}
	}
	return Flag{}, false
}

// yargsUnknown is yargs' strict-mode message for an unknown option: a dashed name is
// reported in both spellings (yargs-parser adds the camelCase key).
func yargsUnknown(flag string) string {
	n := strings.TrimLeft(flag, "-")
	if c := camel(n); c != n {
		return "Unknown arguments: " + n + ", " + c
	}
	return "Unknown argument: " + n
}

func camel(s string) string {
	parts := strings.Split(s, "-")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}

// Parsed is a command line as the CLI reads it.
type Parsed struct {
	Values     map[string][]string // flag name → values ("" for a switch)
	Positional []string
}

// Has reports whether a flag was given.
func (p Parsed) Has(name string) bool { _, ok := p.Values[name]; return ok }

// Value returns a flag's last value.
func (p Parsed) Value(name string) string {
	v := p.Values[name]
	if len(v) == 0 {
		return ""
	}
	return v[len(v)-1]
}

// Parse reads args (after the binary name) as the pinned CLI does and returns the
// rejection the CLI would print when it refuses them: an unknown option, a value outside
// its choices, or (gemini) a prompt given both ways.
func (s CLISpec) Parse(args []string) (Parsed, *Rejection) {
	p := Parsed{Values: map[string][]string{}}
	if s.Subcommand != "" {
		if len(args) == 0 || args[0] != s.Subcommand {
			return p, s.reject(ExitUnknownFlag, map[string]string{"flag": first(args), "name": first(args)})
		}
		args = args[1:]
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			p.Positional = append(p.Positional, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			p.Positional = append(p.Positional, a)
			continue
		}
		name, val, hasVal := strings.Cut(a, "=")
		f, ok := s.lookup(name)
		if !ok {
			return p, s.reject(ExitUnknownFlag, map[string]string{"flag": name, "name": strings.TrimLeft(name, "-"), "yargsUnknown": yargsUnknown(name)})
		}
		var vals []string
		switch {
		case f.Value == "none":
			vals = []string{""}
		case hasVal:
			vals = []string{val}
		case f.Value == "variadic":
			for i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
				vals = append(vals, args[i])
			}
		case f.Value == "optional":
			if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
				vals = []string{args[i]}
			} else {
				vals = []string{""}
			}
		default:
			if i+1 >= len(args) {
				return p, &Rejection{Exit: Exit{Kind: ExitBadValue, Stream: "stderr", ExitCode: s.usageExit()}, Text: fmt.Sprintf("option %s needs a value", name)}
			}
			i++
			vals = []string{args[i]}
		}
		if len(f.Choices) > 0 {
			for _, v := range vals {
				if !contains(f.Choices, v) {
					return p, s.reject(ExitBadValue, map[string]string{"flag": f.Name, "name": strings.TrimLeft(f.Name, "-"), "value": v,
						"usage": firstOf(f.Usage, f.Name), "choices": strings.Join(f.Choices, ", "), "quotedChoices": `"` + strings.Join(f.Choices, `", "`) + `"`})
				}
			}
		}
		p.Values[f.Name] = append(p.Values[f.Name], vals...)
	}
	for _, r := range s.Requires {
		if p.Value(r.Flag) == r.Value && !p.Has(r.Needs) {
			return p, s.reject(r.Kind, nil)
		}
	}
	if s.PromptFlag != "" && len(p.Positional) > 0 {
		if f, ok := s.lookup(s.PromptFlag); ok && p.Has(f.Name) {
			return p, s.reject(ExitPromptConflict, nil)
		}
	}
	return p, nil
}

func (s CLISpec) reject(kind string, vars map[string]string) *Rejection {
	r, ok := s.ExitFor(kind, vars)
	if !ok {
		r = Rejection{Exit: Exit{Kind: kind, Stream: "stderr", ExitCode: s.usageExit()}, Text: kind}
	}
	return &r
}

func (s CLISpec) usageExit() int {
	if r, ok := s.ExitFor(ExitUnknownFlag, nil); ok {
		return r.ExitCode
	}
	return 1
}

// Help is the CLI's option list as it prints it after a usage error (yargs), generated
// from the table: the usage line, then one line per option.
func (s CLISpec) Help() string {
	var b strings.Builder
	b.WriteString(s.UsageLine + "\n\nOptions:\n")
	for _, f := range s.Flags {
		names := f.Name
		if f.Short != "" {
			names = f.Short + ", " + f.Name
		}
		fmt.Fprintf(&b, "  %-36s %s\n", names, firstOf(f.Deprecated, f.Value))
	}
	return b.String()
}

// CheckEvent reports whether one JSONL line of the CLI's stream has the shape the table
// records for its type (every recorded field present). Unknown types are an error too:
// the table lists every event the pinned version emits.
func (s CLISpec) CheckEvent(line string) error {
	var ev map[string]any
	if err := json.Unmarshal([]byte(line), &ev); err != nil {
		return fmt.Errorf("not a JSON object: %w", err)
	}
	t, _ := ev["type"].(string)
	fields, ok := s.Events[t]
	if !ok {
		return fmt.Errorf("%s %s emits no event of type %q", s.Provider, s.Version, t)
	}
	for _, f := range fields {
		if _, ok := ev[f]; !ok {
			return fmt.Errorf("%s %s event %q lacks field %q", s.Provider, s.Version, t, f)
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

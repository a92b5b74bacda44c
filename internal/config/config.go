// Package config holds the smile.json types, their defaults, loading and validation.
package config

// FileName is the configuration file looked up in the current directory.
const FileName = "smile.json"

// Providers accepted by llmProvider.
const (
	ProviderClaude = "claude"
	ProviderCodex  = "codex"
	ProviderGemini = "gemini"
	ProviderNone   = "none"   // deterministic mode: runs the tutorial's shell blocks, no LLM
	ProviderReplay = "replay" // replays a recorded scenario file, no LLM
)

// Runtimes accepted by llmRuntime.
const (
	RuntimeCLI = "cli" // provider CLI inside the learner container, driven by wrappers
	RuntimeAPI = "api" // the orchestrator calls the provider's HTTP API itself
)

// Config is the whole of smile.json. Every field is optional; Default gives the values
// used for fields the file leaves out.
type Config struct {
	Schema          string          `json:"$schema,omitempty" jsonschema:"description=URL or path of this file's JSON Schema (editors use it for completion)"`
	Tutorial        string          `json:"tutorial" jsonschema:"description=Path to the Markdown tutorial\\, relative to the current directory (or\\, when not found there\\, to the directory of the config file),minLength=1,default=tutorial.md"`
	LLMProvider     string          `json:"llmProvider" jsonschema:"description=Who plays Student and Mentor: an LLM CLI/API (claude\\, codex\\, gemini)\\, none (deterministic: runs the shell blocks)\\, or replay (a recorded scenario),enum=claude,enum=codex,enum=gemini,enum=none,enum=replay,default=claude"`
	LLMRuntime      string          `json:"llmRuntime" jsonschema:"description=cli runs the provider's CLI in the learner container; api lets the orchestrator call the provider's HTTP API with native tool calling,enum=cli,enum=api,default=cli"`
	MaxIterations   int             `json:"maxIterations" jsonschema:"description=Maximum Student/Mentor iterations,minimum=1,default=10"`
	Timeout         int             `json:"timeout" jsonschema:"description=Total timeout of a run in seconds,minimum=1,default=1800"`
	ContainerImage  string          `json:"containerImage" jsonschema:"description=Docker image the Student works in,minLength=1,default=smile-base:latest"`
	OutputDir       string          `json:"outputDir" jsonschema:"description=Directory for the report\\, state and logs (created when missing),minLength=1,default=smile-output"`
	FailOn          string          `json:"failOn" jsonschema:"description=Lowest gap severity that makes the run fail (exit 1); never only fails when the loop does not complete,enum=critical,enum=high,enum=medium,enum=low,enum=never,default=high"`
	Scenario        string          `json:"scenario,omitempty" jsonschema:"description=With llmProvider replay: path of the scenario file to replay (resolved like tutorial)"`
	Setup           []string        `json:"setup,omitempty" jsonschema:"description=Shell commands run in the learner container before the tutorial at the start of every iteration (for example to install a prerequisite the tutorial declares and the image lacks); they are never blamed on the tutorial: a failing one ends the run as an environment error (exit 3)"`
	StallThreshold  int             `json:"stallThreshold" jsonschema:"description=End the run as stalled when the same step fails the same way this many iterations in a row despite mentor notes,minimum=2,default=3"`
	StudentBehavior StudentBehavior `json:"studentBehavior" jsonschema:"description=When and how the Student asks the Mentor for help"`
	Container       Container       `json:"container" jsonschema:"description=The learner container"`
	Observe         Observe         `json:"observe" jsonschema:"description=Live observation over WebSocket"`
	LLM             LLM             `json:"llm" jsonschema:"description=Settings of the LLM runtimes"`
}

// StudentBehavior are the stuck triggers and the Student's patience.
type StudentBehavior struct {
	MaxRetriesBeforeHelp      int    `json:"maxRetriesBeforeHelp" jsonschema:"description=Failures of the same step before the Student asks the Mentor,minimum=1,default=3"`
	AskOnMissingDependency    bool   `json:"askOnMissingDependency" jsonschema:"description=Ask when a command or package is not found,default=true"`
	AskOnAmbiguousInstruction bool   `json:"askOnAmbiguousInstruction" jsonschema:"description=Ask when an instruction cannot be interpreted,default=true"`
	AskOnCommandFailure       bool   `json:"askOnCommandFailure" jsonschema:"description=Ask when a command fails,default=true"`
	AskOnTimeout              bool   `json:"askOnTimeout" jsonschema:"description=Ask when a step exceeds timeoutSeconds,default=true"`
	TimeoutSeconds            int    `json:"timeoutSeconds" jsonschema:"description=Per-step timeout in seconds,minimum=1,default=60"`
	PatienceLevel             string `json:"patienceLevel" jsonschema:"description=How persistent the Student is before asking,enum=low,enum=medium,enum=high,default=low"`
}

// Container configures the learner container.
type Container struct {
	KeepOnFailure bool    `json:"keepOnFailure" jsonschema:"description=Keep the container when the run fails (for debugging),default=true"`
	KeepOnSuccess bool    `json:"keepOnSuccess" jsonschema:"description=Keep the container when the run succeeds,default=false"`
	KeepWork      bool    `json:"keepWork" jsonschema:"description=Keep the work directory between iterations instead of resetting it,default=false"`
	Memory        string  `json:"memory" jsonschema:"description=Memory limit (Docker syntax such as 512m or 2g; at least 6m),pattern=^[0-9]+([.][0-9]+)? ?[bBkKmMgGtT]?[iI]?[bB]?$,example=512m,example=2g,default=2g"`
	CPUs          float64 `json:"cpus" jsonschema:"description=CPU limit in cores,exclusiveMinimum=0,default=2"`
	PidsLimit     int     `json:"pidsLimit" jsonschema:"description=Maximum number of processes in the container,minimum=16,default=512"`
}

// Observe configures the live observation server.
type Observe struct {
	Enabled bool `json:"enabled" jsonschema:"description=Serve /ws/observe and the live viewer page during a run,default=true"`
	Port    int  `json:"port" jsonschema:"description=Port on localhost for /ws/observe and the viewer (0 picks a free port),minimum=0,maximum=65535,default=0"`
}

// LLM configures the LLM runtimes (issue: LLM Student and Mentor).
type LLM struct {
	BaseURL              string     `json:"baseURL,omitempty" jsonschema:"description=Base URL of the provider API (an OpenAI-compatible server such as vLLM or Ollama works with provider codex); empty uses the provider's standard URL or its environment variable"`
	Models               Models     `json:"models" jsonschema:"description=Model names per tier; empty uses the provider's default"`
	MaxSteps             int        `json:"maxSteps" jsonschema:"description=Maximum tool calls per Student iteration (api runtime),minimum=1,default=60"`
	MaxConsecutiveErrors int        `json:"maxConsecutiveErrors" jsonschema:"description=Consecutive failing tool calls or API errors before an iteration is abandoned,minimum=1,default=5"`
	ContextTokenBudget   int        `json:"contextTokenBudget" jsonschema:"description=Conversation size in tokens above which the middle of the conversation is summarised,minimum=1000,default=60000"`
	MaxOutputTokens      TierTokens `json:"maxOutputTokens" jsonschema:"description=Output tokens one model call may produce\\, per tier (api runtime). Reasoning models spend part of it thinking; an answer cut off at this limit is asked again with twice the room (up to 4 times the limit) and a cut-off tool call is never run"`
	API                  string     `json:"api,omitempty" jsonschema:"description=With llmProvider codex and llmRuntime api: which OpenAI API to call. responses (the Responses API\\, needed by GPT-6 and *-codex models)\\, chat (Chat Completions\\, for OpenAI-compatible servers such as vLLM or Ollama); empty chooses responses for OpenAI's own URL and *-codex models\\, chat otherwise,enum=,enum=chat,enum=responses"`
	Budget               Budget     `json:"budget" jsonschema:"description=Spend limit of one run; past it the run ends as budget_exceeded (exit 1) with a report. 0 means no limit"`
	RetrySeconds         int        `json:"retrySeconds" jsonschema:"description=Longest total wait for one model call's retries (api runtime): rate limits\\, overload and server errors are retried after the provider's own retry delay until this is spent; a refused key\\, an exhausted quota or an unknown model is never retried,minimum=1,maximum=900,default=180"`
}

// TierTokens is a token count per model tier.
type TierTokens struct {
	Fast     int `json:"fast" jsonschema:"description=Compaction calls,minimum=256,default=16000"`
	Standard int `json:"standard" jsonschema:"description=Student calls,minimum=256,default=32000"`
	Powerful int `json:"powerful" jsonschema:"description=Mentor calls,minimum=256,default=32000"`
}

// Budget bounds what one run may spend on LLM calls (both runtimes: the api runtime
// counts its own calls, the cli runtime's key proxy counts every CLI request).
type Budget struct {
	MaxTokens int     `json:"maxTokens,omitempty" jsonschema:"description=Input plus output tokens of all LLM calls of the run (cached input included); 0 means no limit,minimum=0"`
	MaxUSD    float64 `json:"maxUSD,omitempty" jsonschema:"description=Estimated cost in US dollars of all LLM calls of the run\\, from smile-loop's dated price table (README: Models and prices); 0 means no limit. A model missing from the table is refused with a USD budget,minimum=0"`
}

// Models names the model of each tier.
type Models struct {
	Fast     string `json:"fast,omitempty" jsonschema:"description=Model for context compaction"`
	Standard string `json:"standard,omitempty" jsonschema:"description=Model for the Student"`
	Powerful string `json:"powerful,omitempty" jsonschema:"description=Model for the Mentor"`
}

// Default returns the configuration used when smile.json is absent; Load decodes the
// file over it, so fields the file leaves out keep these values.
func Default() Config {
	return Config{
		Tutorial:       "tutorial.md",
		LLMProvider:    ProviderClaude,
		LLMRuntime:     RuntimeCLI,
		MaxIterations:  10,
		Timeout:        1800,
		ContainerImage: "smile-base:latest",
		OutputDir:      "smile-output",
		FailOn:         "high",
		StallThreshold: 3,
		StudentBehavior: StudentBehavior{
			MaxRetriesBeforeHelp:      3,
			AskOnMissingDependency:    true,
			AskOnAmbiguousInstruction: true,
			AskOnCommandFailure:       true,
			AskOnTimeout:              true,
			TimeoutSeconds:            60,
			PatienceLevel:             "low",
		},
		Container: Container{
			KeepOnFailure: true,
			Memory:        "2g",
			CPUs:          2,
			PidsLimit:     512,
		},
		Observe: Observe{Enabled: true},
		LLM: LLM{
			MaxSteps:             60,
			MaxConsecutiveErrors: 5,
			ContextTokenBudget:   60000,
			RetrySeconds:         180,
			MaxOutputTokens:      TierTokens{Fast: 16000, Standard: 32000, Powerful: 32000},
		},
	}
}

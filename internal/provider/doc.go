// Package provider is what smile-loop knows about each LLM provider, in one place: the
// credential table (key and token variables, base-URL variable, auth header), the
// default model of each tier and the dated price table behind cost estimates and
// budgets. The runtimes, the key proxy, the maskers, Action mode and the docs read it.
package provider

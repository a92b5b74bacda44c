package provider

import (
	"fmt"
	"sync"

	"github.com/smile-loop/smile-loop/internal/config"
)

// Meter counts what a run spends on LLM calls against llm.budget. Both runtimes share
// one per run: the api runtime adds its own calls, the key proxy every CLI request. It
// is safe for concurrent use.
type Meter struct {
	budget config.Budget
	mu     sync.Mutex
	tokens int
	usd    float64
	over   *BudgetError
}

// NewMeter returns a meter for budget (zero fields mean no limit).
func NewMeter(budget config.Budget) *Meter { return &Meter{budget: budget} }

// Limited reports whether the meter enforces anything.
func (m *Meter) Limited() bool {
	return m != nil && (m.budget.MaxTokens > 0 || m.budget.MaxUSD > 0)
}

// Check returns the BudgetError once the budget is spent; no call may start after it.
func (m *Meter) Check() error {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.over != nil {
		return m.over
	}
	return nil
}

// Priced says whether a call to model can be metered in USD: always when there is no
// USD limit.
func (m *Meter) Priced(model string) error {
	if m == nil || m.budget.MaxUSD <= 0 {
		return nil
	}
	if _, ok := PriceOf(model); !ok {
		return &UnpricedError{Model: model}
	}
	return nil
}

// Add records one call's usage on model and returns the BudgetError when it took the
// run past a limit. It returns the call's estimated cost (0 when the model has no price).
func (m *Meter) Add(model string, u Usage) (float64, error) {
	usd, _ := Cost(model, u)
	if m == nil {
		return usd, nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.tokens += u.Input + u.Output
	m.usd += usd
	if m.over == nil {
		switch {
		case m.budget.MaxTokens > 0 && m.tokens > m.budget.MaxTokens:
			m.over = &BudgetError{Limit: fmt.Sprintf("llm.budget.maxTokens %d", m.budget.MaxTokens), Tokens: m.tokens, USD: m.usd}
		case m.budget.MaxUSD > 0 && m.usd > m.budget.MaxUSD:
			m.over = &BudgetError{Limit: fmt.Sprintf("llm.budget.maxUSD %.2f", m.budget.MaxUSD), Tokens: m.tokens, USD: m.usd}
		}
	}
	if m.over != nil {
		return usd, m.over
	}
	return usd, nil
}

// Spent returns the tokens and estimated dollars counted so far.
func (m *Meter) Spent() (tokens int, usd float64) {
	if m == nil {
		return 0, 0
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.tokens, m.usd
}

// BudgetError: the run spent its llm.budget. The loop ends the run as budget_exceeded.
type BudgetError struct {
	Limit  string
	Tokens int
	USD    float64
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("the run's LLM budget is spent: %d tokens, about $%.4f, past %s (raise it in smile.json to let runs go further)", e.Tokens, e.USD, e.Limit)
}

// BudgetExceeded marks the error for the loop (status budget_exceeded).
func (e *BudgetError) BudgetExceeded() bool { return true }

// UnpricedError: a USD budget cannot be kept for a model without a price.
type UnpricedError struct{ Model string }

func (e *UnpricedError) Error() string {
	return fmt.Sprintf("llm.budget.maxUSD cannot be enforced for model %q: it is not in smile-loop's price table (README: Models and prices); choose a listed model or use llm.budget.maxTokens", e.Model)
}

// InvalidInput marks the error as the user's to fix (exit code 2).
func (e *UnpricedError) InvalidInput() bool { return true }

package loop

import "errors"

// budgetExceeded reports whether err says the run's LLM budget (llm.budget) is spent:
// the run ends as budget_exceeded, with a report, instead of retrying the iteration.
// Agents mark such errors with a BudgetExceeded method.
func budgetExceeded(err error) bool {
	var b interface{ BudgetExceeded() bool }
	return errors.As(err, &b) && b.BudgetExceeded()
}

package eval

import "fmt"

// Result is one tutorial's run and score.
type Result struct {
	Name     string  `json:"name"`
	Status   string  `json:"status,omitempty"`
	Coverage string  `json:"coverage,omitempty"`
	Seconds  float64 `json:"seconds"`
	Err      string  `json:"error,omitempty"`
	Score    Score   `json:"score"`
}

// Line is a one-line summary of the result.
func (r Result) Line() string {
	if r.Err != "" {
		return "error: " + r.Err
	}
	s := r.Score
	return fmt.Sprintf("%s; %d reported, %d correct, %d of %d expected found (%.1f s)", r.Status, s.Reported, s.Correct, s.Found, s.Expected, r.Seconds)
}

// Totals are figures summed over a corpus.
type Totals struct {
	Expected       int     `json:"expected"`
	Found          int     `json:"found"`
	Reported       int     `json:"reported"`
	Correct        int     `json:"correct"`
	FalsePositives int     `json:"falsePositives"`
	Missed         int     `json:"missed"`
	Precision      float64 `json:"precision"`
	Recall         float64 `json:"recall"`
	Seconds        float64 `json:"seconds"`
}

// Summary is every result with the totals.
type Summary struct {
	Results []Result `json:"results"`
	Total   Totals   `json:"total"`
}

// Summarise adds the results up. Precision is 1 when nothing was reported, recall 1
// when nothing was expected.
func Summarise(rs []Result) Summary {
	var t Totals
	for _, r := range rs {
		t.Expected += r.Score.Expected
		t.Found += r.Score.Found
		t.Reported += r.Score.Reported
		t.Correct += r.Score.Correct
		t.Missed += len(r.Score.Missed)
		t.Seconds += r.Seconds
	}
	t.FalsePositives = t.Reported - t.Correct
	t.Precision, t.Recall = ratio(t.Correct, t.Reported), ratio(t.Found, t.Expected)
	return Summary{Results: rs, Total: t}
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// Percent formats a/b as a percentage, "—" when b is 0.
func Percent(a, b int) string {
	if b == 0 {
		return "—"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(a)/float64(b))
}

package loop

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Scenario is a recorded run: the Student results and Mentor answers in order. Every run
// writes one (scenario.json in its output directory) and llmProvider "replay" plays one
// back, so any run can be reproduced without tokens.
//
// A Student entry is a Student output object of the spec schema; it may also carry the
// fields the loop observed (trigger, findings, commands, files, plan). A Mentor entry is
// a note, or an object {"notes": …, "fixes": […], "unresolvable": bool}.
type Scenario struct {
	Student []StudentResult `json:"student"`
	Mentor  []ScenarioNote  `json:"mentor"`
}

// ScenarioNote is one Mentor answer of a scenario.
type ScenarioNote struct {
	Notes        string   `json:"notes"`
	Fixes        []string `json:"fixes,omitempty"`
	Unresolvable bool     `json:"unresolvable,omitempty"`
}

// MarshalJSON writes a plain string when the note has nothing but text.
func (n ScenarioNote) MarshalJSON() ([]byte, error) {
	if len(n.Fixes) == 0 && !n.Unresolvable {
		return json.Marshal(n.Notes)
	}
	type plain ScenarioNote
	return json.Marshal(plain(n))
}

// UnmarshalJSON accepts a string or an object.
func (n *ScenarioNote) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		*n = ScenarioNote{}
		return json.Unmarshal(b, &n.Notes)
	}
	type plain ScenarioNote
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*n = ScenarioNote(p)
	return nil
}

// ScenarioOf extracts the scenario of a run from its state.
func ScenarioOf(st *State) Scenario {
	sc := Scenario{Student: []StudentResult{}, Mentor: []ScenarioNote{}}
	for _, it := range st.History {
		if it.Student != nil {
			r := *it.Student
			r.LLMCalls = nil
			r.Raw, r.ParseError = "", ""
			for i := range r.Commands {
				r.Commands[i].OutputPath = ""
			}
			sc.Student = append(sc.Student, r)
		}
		if it.Mentor != nil {
			sc.Mentor = append(sc.Mentor, ScenarioNote{Notes: it.Mentor.Notes, Fixes: it.Mentor.Fixes, Unresolvable: it.Mentor.Unresolvable})
		}
	}
	return sc
}

// WriteScenario writes the scenario of st to dir/scenario.json.
func WriteScenario(dir string, st *State) error {
	data, err := json.MarshalIndent(ScenarioOf(st), "", "  ")
	if err != nil {
		return fmt.Errorf("encode scenario: %w", err)
	}
	return WriteAtomic(filepath.Join(dir, ScenarioFile), append(data, '\n'))
}

// ReadScenario reads a scenario file.
func ReadScenario(path string) (Scenario, error) {
	var sc Scenario
	data, err := os.ReadFile(path)
	if err != nil {
		return sc, fmt.Errorf("read scenario: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&sc); err != nil {
		return sc, fmt.Errorf("decode scenario %s: %w", path, err)
	}
	return sc, nil
}

package none

import (
	"slices"
	"strings"
)

// afterCommonLines is cur without the lines it starts with in common with prev (what the
// earlier cells printed again).
func afterCommonLines(prev, cur string) string {
	p, c := strings.Split(prev, "\n"), strings.Split(cur, "\n")
	n := 0
	for n < len(p) && n < len(c) && p[n] == c[n] {
		n++
	}
	return strings.TrimLeft(strings.Join(c[n:], "\n"), "\n")
}

// typed is what runs for a step: its command, or for a cell typed into an interpreter,
// the interpreter fed the cells that worked before it and then this one.
func (ss *session) typed(st step, text string) string {
	if st.repl == "" {
		return text
	}
	prog := st.repl
	if firstWord(prog) == "fish" {
		// interactive, as at the reader's prompt (config.fish's `if status is-interactive`
		// part runs); a dumb terminal keeps its terminal set-up warnings out of the output
		prog = "TERM=dumb " + prog + " -i"
	}
	return prog + " <<'SMILE_REPL_INPUT'\n" + strings.Join(append(slices.Clone(ss.replCells[st.repl]), text), "\n") + "\nSMILE_REPL_INPUT"
}

// typedIn records a cell that worked and what the interpreter printed up to it.
func (ss *session) typedIn(st step, text, output string) {
	if st.repl == "" {
		return
	}
	ss.replCells[st.repl] = append(ss.replCells[st.repl], text)
	ss.replOut[st.repl] = output
}

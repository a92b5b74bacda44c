package report

import (
	"strings"
	"testing"

	"github.com/smile-loop/smile-loop/internal/agent/none"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// FuzzMarkdownInert: whatever text the Student, the Mentor or a command produce, the
// Markdown keeps its structure, holds no HTML and pings nobody.
func FuzzMarkdownInert(f *testing.F) {
	for _, s := range []string{
		"<script>alert(1)</script>", "| a | b |\n|---|---|", "```\n</details>\n```", "@org/team #1 GH-2",
		"&#64;x &lt;b&gt;", "![i](http://x/p.png) [l](javascript:x)", "\n# Heading\n---\n", "`` ` ``", "\\|\\`\\@",
		"<!-- c -->", "<details><summary>x</summary>", "* item\n1. item", "> quote", "~~~\ncode\n~~~", "a\u202eb",
	} {
		f.Add(s, s, s)
	}
	f.Fuzz(func(t *testing.T, problem, command, notes string) {
		st := baseState("testdata/tutorial.md", loop.StatusMaxIterations)
		st.FinalResult.Reason = problem
		st.History = []loop.Iteration{{Iteration: 1, Started: at(1), Ended: at(2),
			Student: &loop.StudentResult{StudentOutput: loop.StudentOutput{Status: loop.StudentAskMentor, CurrentStep: notes, Problem: problem},
				Findings: []loop.Finding{{Step: notes, Quote: problem, Problem: problem, Command: command, ExitCode: 1, Output: notes, Question: command}},
				Commands: []loop.CommandRecord{{Iteration: 1, Command: command, ExitCode: 2, Output: problem, Summary: notes}},
				Files:    []loop.FileRecord{{Iteration: 1, Path: command, Size: 1}},
				LLMCalls: []loop.LLMCall{{Agent: notes, Provider: problem, Model: command}}},
			Mentor: &loop.MentorRecord{Notes: notes, Fixes: []string{command}}}}
		r := Build(st, nil, Options{RuleFix: none.Fix, Now: fixedNow})
		md := RenderMarkdown(r)
		p := parseMarkdown(t, md)
		if len(p.html) > 0 {
			t.Fatalf("raw HTML in:\n%s", md)
		}
		if len(p.images) > 0 {
			t.Fatalf("image in:\n%s", md)
		}
		if got := strings.Join(p.headings[2], "|"); got != "Summary|Gaps Identified|Timeline|Audit Trail|Recommendations" {
			t.Fatalf("level-2 headings %q in:\n%s", got, md)
		}
		if len(p.headings[1]) != 1 || len(p.headings[3]) != len(r.Gaps)+len(r.Timeline)+3 {
			t.Fatalf("headings %v in:\n%s", p.headings, md)
		}
		for _, s := range p.texts {
			if reMention.MatchString(s) || reIssueRef.MatchString(s) || reGHRef.MatchString(s) {
				t.Fatalf("reference %q in:\n%s", s, md)
			}
		}
		var tables [][][]string
		tables = htmlTables(renderHTML(t, p.src))
		for _, tbl := range tables {
			for _, row := range tbl {
				if len(row) != len(tbl[0]) {
					t.Fatalf("table row %q has %d cells, header %d, in:\n%s", row, len(row), len(tbl[0]), md)
				}
			}
		}
		if len(tables) != 3 || len(tables[0]) != 2 || tables[0][1][3] != "2" {
			t.Fatalf("commands table broken: %q in:\n%s", tables, md)
		}
	})
}

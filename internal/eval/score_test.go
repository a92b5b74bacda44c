package eval

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A tutorial of our own with every kind of region the corpus format defines: a fenced
// block, a prose marker followed by a block, Hugo and Jekyll highlight pairs.
const scoreMD = `# Demo

Install the tool:

` + "```bash" + `
sudo apt-get install -y tool
` + "```" + `

From inside the project, build it:

{% highlight bash %}
make build
{% endhighlight %}

{{< highlight bash >}}
./build/demo --check
{{< /highlight >}}

Open http://localhost:8080 in a browser.

Windows users run setup.exe instead.
`

func TestScoreCaseRegionsAndVerdicts(t *testing.T) {
	t.Parallel()
	c := Case{Tutorial: "demo.md", Expected: Expected{
		Gaps: []ExpectedGap{
			{Marker: "From inside the project, build it:", Mentions: "make", AlsoAt: []string{"./build/demo --check"}},
			{Marker: "sudo apt-get install -y tool", Mentions: "update"},
		},
		MustNotFlag: []Marker{{Marker: "Windows users run setup.exe instead."}},
		Environment: []Marker{{Marker: "Open http://localhost:8080 in a browser."}},
	}}
	reported := []Reported{
		{Line: 12, Text: "make is not available; install make"}, // inside the Jekyll pair after the prose marker
		{Line: 16, Text: "./build/demo: No such file"},          // a consequence, not folded
		{Line: 6, Text: "Unable to locate package tool"},        // right line, wrong diagnosis
		{Line: 19, Text: "needs a browser", Environment: true},  // environment, classed as one
		{Line: 21, Text: "setup.exe is not a Linux command"},    // must not flag
		{Line: 1, Text: "the title is too short"},               // matches nothing
		{Line: 19, Text: "the tutorial never opens a browser"},  // environment blamed on the tutorial
	}
	s, err := ScoreCase(c, []byte(scoreMD), reported)
	require.NoError(t, err)
	var got []Verdict
	for _, sc := range s.Scored {
		got = append(got, sc.Verdict)
	}
	assert.Equal(t, []Verdict{Found, FoldMissed, Unmatched, EnvironmentOK, FlaggedWrongly, Unmatched, EnvAsFault}, got)
	assert.Equal(t, 2, s.Expected)
	assert.Equal(t, 1, s.Found)
	assert.Equal(t, 2, s.Correct)
	assert.Equal(t, 5, s.FalsePositives())
	require.Len(t, s.Missed, 1)
	assert.Equal(t, "sudo apt-get install -y tool", s.Missed[0].Marker, "found only when the text mentions the word the label asks for")
}

// Two faults on one line are both found by two reports (bipartite matching), and one
// report never finds two gaps.
func TestScoreCaseTwoGapsOnOneLine(t *testing.T) {
	t.Parallel()
	md := "# Two\n\n```bash\nrun --old-flag ./missing\n```\n"
	c := Case{Tutorial: "two.md", Expected: Expected{Gaps: []ExpectedGap{
		{Marker: "run --old-flag", Mentions: "flag"},
		{Marker: "./missing", Mentions: "missing"},
	}}}
	s, err := ScoreCase(c, []byte(md), []Reported{{Line: 4, Text: "flag and missing file"}})
	require.NoError(t, err)
	assert.Equal(t, 1, s.Found)
	s, err = ScoreCase(c, []byte(md), []Reported{{Line: 4, Text: "unknown flag"}, {Line: 4, Text: "./missing is missing"}})
	require.NoError(t, err)
	assert.Equal(t, 2, s.Found)
	assert.Equal(t, 0, s.FalsePositives())
}

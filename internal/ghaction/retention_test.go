package ghaction_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smile-loop/smile-loop/internal/ghaction"
	"github.com/smile-loop/smile-loop/internal/ghaction/ghactiontest"
)

// A re-run of a job finds its earlier attempt's artifact under the same name: the
// upload replaces it (ListArtifacts by name, DeleteArtifact, CreateArtifact again), as
// upload-artifact's overwrite does, instead of failing with 409.
func TestPublishArtifactOnRerun(t *testing.T) {
	t.Parallel()
	_, gh := newGitHub(t)
	arts := ghactiontest.NewArtifacts(t)
	arts.AddEarlier("smile-report")
	env := ghactiontest.NewEnv(t, "push", ghactiontest.Fixture(t, "push-payload.json"))
	env.Set("GITHUB_RUN_ATTEMPT", "2")
	var log bytes.Buffer
	p := publisher(t, env, gh, arts, &log)
	out, err := p.Publish(context.Background(), []ghaction.Result{result(t, env.Workspace())})
	require.NoError(t, err)
	assert.Empty(t, out.NotPosted, log.String())
	assert.Equal(t, []string{"smile-report"}, arts.Deleted, "the earlier attempt's artifact is replaced")
	assert.Equal(t, "# Report for docs/a.md\n", arts.Files(t, "smile-report")["smile-report.md"])
}

// The first attempt never deletes anything: a taken name there is another job of the
// run (a matrix without unique names), and the hint says how to fix that.
func TestPublishArtifactNameTakenOnFirstAttempt(t *testing.T) {
	t.Parallel()
	_, gh := newGitHub(t)
	arts := ghactiontest.NewArtifacts(t)
	arts.AddEarlier("smile-report")
	env := ghactiontest.NewEnv(t, "push", ghactiontest.Fixture(t, "push-payload.json"))
	env.Set("GITHUB_RUN_ATTEMPT", "1")
	var log bytes.Buffer
	out, err := publisher(t, env, gh, arts, &log).Publish(context.Background(), []ghaction.Result{result(t, env.Workspace())})
	require.NoError(t, err)
	require.NotEmpty(t, out.NotPosted)
	assert.Contains(t, out.NotPosted[0], "HTTP 409 already_exists")
	assert.Contains(t, out.NotPosted[0], "make artifact-name unique per job")
	assert.Empty(t, arts.Deleted)
}

func TestPublishArtifactRetention(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		input, limit string
		days         int
		warned       bool
	}{
		{"", "90", 0, false},
		{"5", "90", 5, false},
		{"120", "90", 90, true},
	} {
		_, gh := newGitHub(t)
		arts := ghactiontest.NewArtifacts(t)
		env := ghactiontest.NewEnv(t, "push", ghactiontest.Fixture(t, "push-payload.json"))
		env.Set("GITHUB_RETENTION_DAYS", tt.limit)
		var log bytes.Buffer
		p := publisher(t, env, gh, arts, &log)
		in, err := ghaction.ReadInputs(func(k string) string {
			if k == "retention-days" {
				return tt.input
			}
			return ""
		})
		require.NoError(t, err)
		p.Inputs.RetentionDays = in.RetentionDays
		_, err = p.Publish(context.Background(), []ghaction.Result{result(t, env.Workspace())})
		require.NoError(t, err)
		exp := arts.Expires["smile-report"]
		if tt.days == 0 {
			assert.Empty(t, exp, "no expires_at: the repository's default")
		} else {
			at, err := time.Parse(time.RFC3339, exp)
			require.NoError(t, err, "expires_at is an RFC 3339 timestamp")
			want := time.Now().UTC().AddDate(0, 0, tt.days)
			assert.WithinDuration(t, want, at, time.Hour, "input %s", tt.input)
		}
		assert.Equal(t, tt.warned, bytes.Contains(log.Bytes(), []byte("::warning::retention-days 120 is more than this repository allows; keeping the artifact 90 days")), log.String())
	}
	_, err := ghaction.ReadInputs(func(k string) string {
		if k == "retention-days" {
			return "0"
		}
		return ""
	})
	require.ErrorContains(t, err, `input retention-days="0" is invalid`)
}

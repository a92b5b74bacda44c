package ghaction

import "strconv"

// artifactSettings are the upload settings of this job: a re-run (GITHUB_RUN_ATTEMPT
// above 1) replaces the artifact an earlier attempt uploaded under the same name, and
// the retention-days input is capped at the repository's maximum (GITHUB_RETENTION_DAYS),
// with a warning, as @actions/artifact does (packages/artifact/src/internal/upload/
// retention.ts).
func (p *Publisher) artifactSettings() (overwrite bool, days int) {
	if n, err := strconv.Atoi(p.Getenv("GITHUB_RUN_ATTEMPT")); err == nil && n > 1 {
		overwrite = true
	}
	days = p.Inputs.RetentionDays
	if max, err := strconv.Atoi(p.Getenv("GITHUB_RETENTION_DAYS")); err == nil && max > 0 && days > max {
		p.Action.Warningf("retention-days %d is more than this repository allows; keeping the artifact %d days", days, max)
		days = max
	}
	return overwrite, days
}

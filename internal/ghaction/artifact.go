package ghaction

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"strconv"
	"strings"
	"time"
)

// Artifacts uploads workflow artifacts through the Actions results service (artifact
// v4, the protocol of @actions/artifact): Twirp JSON CreateArtifact, a blob PUT of the
// zip to the signed URL, then FinalizeArtifact. The runner gives container actions the
// service's URL (ACTIONS_RESULTS_URL) and a runtime token (ACTIONS_RUNTIME_TOKEN).
type Artifacts struct {
	ResultsURL string
	Token      string
	HTTP       *http.Client
	// Overwrite replaces an artifact of the same name when the name is taken, as
	// upload-artifact's `overwrite: true` does (ListArtifacts by name, DeleteArtifact,
	// then create again). Action mode sets it on a re-run (GITHUB_RUN_ATTEMPT > 1),
	// where the earlier attempt's artifact holds the name.
	Overwrite bool
}

// ErrNoArtifactService: the runner did not pass the artifact service's URL and token.
var ErrNoArtifactService = errors.New("ACTIONS_RUNTIME_TOKEN or ACTIONS_RESULTS_URL is not set, so the report cannot be uploaded as an artifact (it stays in the workspace)")

// ArtifactFile is one file of an artifact: its name inside the zip and its path on disk.
type ArtifactFile struct {
	Name string
	Path string
}

const twirpArtifact = "/twirp/github.actions.results.api.v1.ArtifactService/"

// backendIDs reads the workflow run and job backend ids from the runtime token's
// "Actions.Results:<run>:<job>" scope.
func backendIDs(token string) (run, job string, err error) {
	parts := strings.Split(token, ".")
	if len(parts) < 2 {
		return "", "", errors.New("runtime token is not a JWT")
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return "", "", fmt.Errorf("decode runtime token claims: %w", err)
	}
	var claims struct {
		Scp string `json:"scp"`
	}
	if err := json.Unmarshal(raw, &claims); err != nil {
		return "", "", fmt.Errorf("decode runtime token claims: %w", err)
	}
	for _, s := range strings.Fields(claims.Scp) {
		p := strings.Split(s, ":")
		if len(p) == 3 && p[0] == "Actions.Results" {
			return p[1], p[2], nil
		}
	}
	return "", "", errors.New("runtime token has no Actions.Results scope")
}

// Upload zips the files and uploads them as the artifact name; it returns the
// artifact's id.
func (a *Artifacts) Upload(ctx context.Context, name string, files []ArtifactFile, retentionDays int) (int64, error) {
	if a.ResultsURL == "" || a.Token == "" {
		return 0, ErrNoArtifactService
	}
	runID, jobID, err := backendIDs(a.Token)
	if err != nil {
		return 0, fmt.Errorf("artifact %s: %w", name, err)
	}
	zipped, err := zipFiles(files)
	if err != nil {
		return 0, fmt.Errorf("artifact %s: %w", name, err)
	}
	create := map[string]any{
		"workflow_run_backend_id":     runID,
		"workflow_job_run_backend_id": jobID,
		"name":                        name,
		"version":                     4,
	}
	if retentionDays > 0 {
		create["expires_at"] = time.Now().UTC().AddDate(0, 0, retentionDays).Format(time.RFC3339)
	}
	var created struct {
		OK              bool   `json:"ok"`
		SignedUploadURL string `json:"signed_upload_url"`
	}
	err = a.twirp(ctx, "CreateArtifact", create, &created)
	if err != nil && a.Overwrite && strings.Contains(err.Error(), "HTTP 409") {
		if derr := a.deleteNamed(ctx, runID, jobID, name); derr != nil {
			return 0, fmt.Errorf("create artifact %s: %w; replacing the earlier one failed: %w", name, err, derr)
		}
		err = a.twirp(ctx, "CreateArtifact", create, &created)
	}
	if err != nil {
		if strings.Contains(err.Error(), "HTTP 409") {
			return 0, fmt.Errorf("create artifact %s: %w (artifact names are unique per workflow run: in a matrix make artifact-name unique per job, e.g. smile-report-${{ strategy.job-index }})", name, err)
		}
		return 0, fmt.Errorf("create artifact %s: %w", name, err)
	}
	if !created.OK || created.SignedUploadURL == "" {
		return 0, fmt.Errorf("create artifact %s: the service did not accept it", name)
	}
	if err := a.putBlob(ctx, created.SignedUploadURL, zipped); err != nil {
		return 0, fmt.Errorf("upload artifact %s: %w", name, err)
	}
	sum := sha256.Sum256(zipped)
	var fin struct {
		OK         bool   `json:"ok"`
		ArtifactID string `json:"artifact_id"` // int64 travels as a string in protobuf JSON
	}
	if err := a.twirp(ctx, "FinalizeArtifact", map[string]any{
		"workflow_run_backend_id":     runID,
		"workflow_job_run_backend_id": jobID,
		"name":                        name,
		"size":                        strconv.Itoa(len(zipped)),
		"hash":                        "sha256:" + hex.EncodeToString(sum[:]),
	}, &fin); err != nil {
		return 0, fmt.Errorf("finalize artifact %s: %w", name, err)
	}
	if !fin.OK {
		return 0, fmt.Errorf("finalize artifact %s: the service did not accept it", name)
	}
	id, _ := strconv.ParseInt(fin.ArtifactID, 10, 64)
	return id, nil
}

// deleteNamed deletes the newest artifact called name, as toolkit's
// deleteArtifactInternal does (packages/artifact/src/internal/delete/delete-artifact.ts).
func (a *Artifacts) deleteNamed(ctx context.Context, runID, jobID, name string) error {
	var list struct {
		Artifacts []struct {
			RunID string `json:"workflow_run_backend_id"`
			JobID string `json:"workflow_job_run_backend_id"`
			DBID  string `json:"database_id"` // int64 as a string
			Name  string `json:"name"`
		} `json:"artifacts"`
	}
	if err := a.twirp(ctx, "ListArtifacts", map[string]any{
		"workflow_run_backend_id":     runID,
		"workflow_job_run_backend_id": jobID,
		"name_filter":                 name, // google.protobuf.StringValue: the bare string in JSON
	}, &list); err != nil {
		return fmt.Errorf("list artifacts: %w", err)
	}
	newest, newestID := -1, int64(-1)
	for i, art := range list.Artifacts {
		id, _ := strconv.ParseInt(art.DBID, 10, 64)
		if art.Name == name && id > newestID {
			newest, newestID = i, id
		}
	}
	if newest < 0 {
		return fmt.Errorf("no artifact called %s to replace", name)
	}
	art := list.Artifacts[newest]
	var del struct {
		OK bool `json:"ok"`
	}
	if err := a.twirp(ctx, "DeleteArtifact", map[string]any{
		"workflow_run_backend_id":     art.RunID,
		"workflow_job_run_backend_id": art.JobID,
		"name":                        art.Name,
	}, &del); err != nil {
		return fmt.Errorf("delete artifact: %w", err)
	}
	return nil
}

func (a *Artifacts) client() *http.Client {
	if a.HTTP != nil {
		return a.HTTP
	}
	return http.DefaultClient
}

// twirp calls one method of the artifact service with Twirp's JSON encoding, retrying
// 5xx and 429 a few times like @actions/artifact does.
func (a *Artifacts) twirp(ctx context.Context, method string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	u := strings.TrimRight(a.ResultsURL, "/") + twirpArtifact + method
	var last error
	for attempt := 0; attempt < 4; attempt++ {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Duration(attempt) * 500 * time.Millisecond):
			}
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+a.Token)
		resp, err := a.client().Do(req)
		if err != nil {
			last = err
			continue
		}
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		if resp.StatusCode/100 == 2 {
			return json.Unmarshal(data, out)
		}
		var te struct {
			Code string `json:"code"`
			Msg  string `json:"msg"`
		}
		_ = json.Unmarshal(data, &te)
		last = fmt.Errorf("HTTP %d %s %s", resp.StatusCode, te.Code, te.Msg)
		if resp.StatusCode < 500 && resp.StatusCode != http.StatusTooManyRequests {
			return last
		}
	}
	return last
}

// putBlob uploads the zip to the signed blob URL (Azure Blob Storage: one block blob PUT).
func (a *Artifacts) putBlob(ctx context.Context, url string, data []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, url, bytes.NewReader(data))
	if err != nil {
		return err
	}
	req.Header.Set("x-ms-blob-type", "BlockBlob")
	req.Header.Set("Content-Type", "zip")
	resp, err := a.client().Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("blob storage: HTTP %d %s", resp.StatusCode, strings.TrimSpace(string(msg)))
	}
	return nil
}

func zipFiles(files []ArtifactFile) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		data, err := os.ReadFile(f.Path)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", f.Path, err)
		}
		w, err := zw.Create(path.Clean(f.Name))
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

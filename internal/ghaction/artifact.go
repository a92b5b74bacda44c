package ghaction

import (
	"archive/zip"
	"bytes"
	"cmp"
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
	// MaxBytes bounds the artifact's files together, before compression (default
	// DefaultArtifactQuota): the zip is written to a temporary file, never held in
	// memory, and a limit keeps it from filling the runner's disk.
	MaxBytes int64
	// TempDir is where the zip is written before the upload ("": os.TempDir()).
	TempDir string
}

// DefaultArtifactQuota bounds an artifact's files together (Artifacts.MaxBytes): far
// above what a run writes (each audit log holds at most 64 MiB of command outputs).
const DefaultArtifactQuota = 1 << 30

// ArtifactQuotaError: the artifact's files hold more than the quota; nothing was uploaded.
type ArtifactQuotaError struct {
	Name  string
	Quota int64
	File  string // the file that crossed the quota
}

func (e *ArtifactQuotaError) Error() string {
	return fmt.Sprintf("artifact %s: its files hold more than %d MiB, the artifact quota (%s crossed it), so it was not uploaded; the report files stay in the workspace", e.Name, e.Quota>>20, e.File)
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
	zipped, err := a.zip(name, files)
	if err != nil {
		return 0, err
	}
	defer zipped.remove()
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
	var fin struct {
		OK         bool   `json:"ok"`
		ArtifactID string `json:"artifact_id"` // int64 travels as a string in protobuf JSON
	}
	if err := a.twirp(ctx, "FinalizeArtifact", map[string]any{
		"workflow_run_backend_id":     runID,
		"workflow_job_run_backend_id": jobID,
		"name":                        name,
		"size":                        strconv.FormatInt(zipped.size, 10),
		"hash":                        "sha256:" + hex.EncodeToString(zipped.sum),
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

// putBlob uploads the zip to the signed blob URL (Azure Blob Storage: one block blob
// PUT), streamed from its file with its length (Put Blob requires Content-Length).
func (a *Artifacts) putBlob(ctx context.Context, url string, z *zipFile) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, url, z.body())
	if err != nil {
		return err
	}
	req.ContentLength = z.size
	req.GetBody = func() (io.ReadCloser, error) { return z.body(), nil }
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

// zipFile is an artifact's zip on disk with its size and SHA-256.
type zipFile struct {
	f    *os.File
	size int64
	sum  []byte
}

func (z *zipFile) body() io.ReadCloser {
	return io.NopCloser(io.NewSectionReader(z.f, 0, z.size))
}

func (z *zipFile) remove() {
	_ = z.f.Close()
	_ = os.Remove(z.f.Name())
}

// zip writes the files into a zip in a temporary file, streaming each file through
// the compressor and the hash; the files together may hold at most the quota.
func (a *Artifacts) zip(name string, files []ArtifactFile) (*zipFile, error) {
	quota := cmp.Or(a.MaxBytes, DefaultArtifactQuota)
	f, err := os.CreateTemp(a.TempDir, "smile-artifact-*.zip")
	if err != nil {
		return nil, fmt.Errorf("artifact %s: %w", name, err)
	}
	z := &zipFile{f: f}
	h := sha256.New()
	cw := &countWriter{w: io.MultiWriter(f, h)}
	zw := zip.NewWriter(cw)
	left := quota
	for _, af := range files {
		if err = zipOne(zw, af, &left); err != nil {
			if left < 0 {
				err = &ArtifactQuotaError{Name: name, Quota: quota, File: af.Name}
			}
			break
		}
	}
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		z.remove()
		var qe *ArtifactQuotaError
		if errors.As(err, &qe) {
			return nil, err
		}
		return nil, fmt.Errorf("artifact %s: %w", name, err)
	}
	z.size, z.sum = cw.n, h.Sum(nil)
	return z, nil
}

// zipOne copies one file into the zip; left is what the quota still allows, negative
// when this file crossed it.
func zipOne(zw *zip.Writer, af ArtifactFile, left *int64) error {
	in, err := os.Open(af.Path)
	if err != nil {
		return fmt.Errorf("read %s: %w", af.Path, err)
	}
	defer in.Close()
	w, err := zw.Create(path.Clean(af.Name))
	if err != nil {
		return err
	}
	n, err := io.Copy(w, io.LimitReader(in, *left+1))
	*left -= n
	if err != nil {
		return fmt.Errorf("read %s: %w", af.Path, err)
	}
	if *left < 0 {
		return errors.New("over the artifact quota")
	}
	return nil
}

// countWriter counts what passes through it.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

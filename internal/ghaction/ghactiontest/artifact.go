package ghactiontest

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Backend ids the fake runtime token carries.
const (
	RunBackendID = "ce7f54c7-61c7-4aae-887f-30da475f5f1a"
	JobBackendID = "ca395085-040a-526b-2ce8-bdc85f692774"
)

// RuntimeToken returns a JWT shaped like the runner's ACTIONS_RUNTIME_TOKEN (unsigned:
// clients only read its scope).
func RuntimeToken() string {
	enc := base64.RawURLEncoding
	claims, _ := json.Marshal(map[string]string{"scp": "Actions.GenericRead:00000000 Actions.Results:" + RunBackendID + ":" + JobBackendID})
	return enc.EncodeToString([]byte(`{"typ":"JWT","alg":"RS256"}`)) + "." + enc.EncodeToString(claims) + ".c2lnbmF0dXJl"
}

// Artifacts is a fake of the Actions results service (artifact v4): Twirp JSON
// CreateArtifact, FinalizeArtifact, ListArtifacts and DeleteArtifact (what
// upload-artifact's overwrite calls), and the signed blob URL the zip is PUT to.
type Artifacts struct {
	Server *httptest.Server
	Token  string

	mu        sync.Mutex
	created   map[string]bool
	blobs     map[string][]byte
	finalized map[string]int64
	jobOf     map[string]string
	Fail      int               // answer the next Fail Twirp calls with 503
	Deleted   []string          // names DeleteArtifact removed
	Puts      int               // blob uploads received
	Expires   map[string]string // CreateArtifact's expires_at by name ("" when not sent)
}

// NewArtifacts starts the fake; it closes with the test.
func NewArtifacts(t testing.TB) *Artifacts {
	a := &Artifacts{Token: RuntimeToken(), created: map[string]bool{}, blobs: map[string][]byte{}, finalized: map[string]int64{},
		jobOf: map[string]string{}, Expires: map[string]string{}}
	// the handler reads a.Server: assign it before serving the first request
	a.Server = httptest.NewUnstartedServer(http.HandlerFunc(a.serve))
	a.Server.Start()
	t.Cleanup(a.Server.Close)
	return a
}

// URL is ACTIONS_RESULTS_URL.
func (a *Artifacts) URL() string { return a.Server.URL + "/" }

// AddEarlier stores a finalized artifact name as an earlier attempt of the job did (a
// re-run's job has another backend id).
func (a *Artifacts) AddEarlier(name string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.created[name], a.blobs[name] = true, []byte("earlier attempt")
	a.finalized[name] = int64(3000 + len(a.finalized))
	a.jobOf[name] = "0b5c1e2f-0000-4000-8000-earlierattempt"
}

// Files returns the finalized artifact's files by name inside the zip.
func (a *Artifacts) Files(t testing.TB, name string) map[string]string {
	t.Helper()
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, ok := a.finalized[name]; !ok {
		t.Fatalf("artifact %q was not finalized", name)
	}
	data := a.blobs[name]
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("artifact %q is not a zip: %v", name, err)
	}
	out := map[string]string{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		out[f.Name] = string(b)
	}
	return out
}

func twirpError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"code": code, "msg": msg})
}

func (a *Artifacts) serve(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if strings.HasPrefix(r.URL.Path, "/blob/") {
		a.putBlob(w, r)
		return
	}
	const prefix = "/twirp/github.actions.results.api.v1.ArtifactService/"
	if r.Method != http.MethodPost || !strings.HasPrefix(r.URL.Path, prefix) {
		twirpError(w, http.StatusNotFound, "bad_route", "no handler for "+r.Method+" "+r.URL.Path)
		return
	}
	if r.Header.Get("Authorization") != "Bearer "+a.Token {
		twirpError(w, http.StatusUnauthorized, "unauthenticated", "invalid runtime token")
		return
	}
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		twirpError(w, http.StatusBadRequest, "malformed", "content type must be application/json")
		return
	}
	if a.Fail > 0 {
		a.Fail--
		twirpError(w, http.StatusServiceUnavailable, "unavailable", "try again")
		return
	}
	var req map[string]any
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		twirpError(w, http.StatusBadRequest, "malformed", err.Error())
		return
	}
	name, _ := req["name"].(string)
	method := strings.TrimPrefix(r.URL.Path, prefix)
	// DeleteArtifact names the artifact by the ids ListArtifacts returned for it, which
	// are an earlier attempt's job's on a re-run (toolkit deleteArtifactInternal).
	jobID := JobBackendID
	if method == "DeleteArtifact" && a.jobOf[name] != "" {
		jobID = a.jobOf[name]
	}
	if req["workflow_run_backend_id"] != RunBackendID || req["workflow_job_run_backend_id"] != jobID {
		twirpError(w, http.StatusBadRequest, "invalid_argument", "backend ids do not match the token")
		return
	}
	if name == "" && method != "ListArtifacts" {
		twirpError(w, http.StatusBadRequest, "invalid_argument", "name is required")
		return
	}
	switch method {
	case "ListArtifacts":
		// ListArtifactsRequest: name_filter is a google.protobuf.StringValue, a plain
		// string in protobuf JSON (toolkit delete-artifact.ts, list-artifacts.ts).
		filter, _ := req["name_filter"].(string)
		list := []map[string]any{}
		for n, id := range a.finalized {
			if filter == "" || n == filter {
				list = append(list, map[string]any{"workflow_run_backend_id": RunBackendID, "workflow_job_run_backend_id": a.jobOf[n],
					"database_id": strconv.FormatInt(id, 10), "name": n, "size": strconv.Itoa(len(a.blobs[n]))})
			}
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"artifacts": list})
	case "DeleteArtifact":
		id, ok := a.finalized[name]
		if !ok {
			twirpError(w, http.StatusNotFound, "not_found", "artifact not found: "+name)
			return
		}
		delete(a.finalized, name)
		delete(a.created, name)
		delete(a.blobs, name)
		a.Deleted = append(a.Deleted, name)
		_ = json.NewEncoder(w).Encode(map[string]any{"ok": true, "artifact_id": strconv.FormatInt(id, 10)})
	case "CreateArtifact":
		if v, _ := req["version"].(float64); v != 4 {
			twirpError(w, http.StatusBadRequest, "invalid_argument", "version must be 4")
			return
		}
		if a.created[name] {
			twirpError(w, http.StatusConflict, "already_exists", "an artifact with this name already exists on the workflow run")
			return
		}
		a.created[name] = true
		a.jobOf[name] = JobBackendID
		a.Expires[name], _ = req["expires_at"].(string)
		_ = json.NewEncoder(w).Encode(map[string]any{"ok": true, "signed_upload_url": a.Server.URL + "/blob/" + name + "?sig=signed"})
	case "FinalizeArtifact":
		blob, ok := a.blobs[name]
		if !a.created[name] || !ok {
			twirpError(w, http.StatusNotFound, "not_found", "artifact not created or not uploaded")
			return
		}
		size, _ := req["size"].(string) // int64 is a string in protobuf JSON
		if size != strconv.Itoa(len(blob)) {
			twirpError(w, http.StatusBadRequest, "invalid_argument", fmt.Sprintf("size %q does not match the upload (%d)", size, len(blob)))
			return
		}
		sum := sha256.Sum256(blob)
		if h, _ := req["hash"].(string); h != "sha256:"+hex.EncodeToString(sum[:]) {
			twirpError(w, http.StatusBadRequest, "invalid_argument", "hash does not match the upload")
			return
		}
		id := int64(4000 + len(a.finalized))
		a.finalized[name] = id
		_ = json.NewEncoder(w).Encode(map[string]any{"ok": true, "artifact_id": strconv.FormatInt(id, 10)})
	default:
		twirpError(w, http.StatusNotFound, "bad_route", "unknown method")
	}
}

func (a *Artifacts) putBlob(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/blob/")
	if r.Method != http.MethodPut || r.URL.Query().Get("sig") != "signed" || !a.created[name] {
		w.WriteHeader(http.StatusForbidden)
		return
	}
	if r.Header.Get("x-ms-blob-type") != "BlockBlob" {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, "MissingRequiredHeader x-ms-blob-type")
		return
	}
	// Put Blob requires Content-Length; a chunked body is refused with 411 (Azure Blob
	// Storage REST reference, "Put Blob" request headers; error MissingContentLengthHeader).
	if r.ContentLength < 0 {
		w.WriteHeader(http.StatusLengthRequired)
		_, _ = io.WriteString(w, "MissingContentLengthHeader")
		return
	}
	data, _ := io.ReadAll(r.Body)
	a.blobs[name] = data
	a.Puts++
	w.WriteHeader(http.StatusCreated)
}

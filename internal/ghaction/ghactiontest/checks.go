package ghactiontest

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/google/go-github/v60/github"
	"github.com/smile-loop/smile-loop/internal/ghaction"
)

// Check runs, as GitHub's REST API takes them.

type checkReq struct {
	Name        string  `json:"name"`
	HeadSHA     string  `json:"head_sha"`
	Status      *string `json:"status"`
	Conclusion  *string `json:"conclusion"`
	CompletedAt *string `json:"completed_at"`
	Output      *struct {
		Title       *string                      `json:"title"`
		Summary     *string                      `json:"summary"`
		Text        *string                      `json:"text"`
		Annotations []*github.CheckRunAnnotation `json:"annotations"`
	} `json:"output"`
}

func validOutput(w http.ResponseWriter, req checkReq) bool {
	if req.Output == nil {
		return true
	}
	o := req.Output
	if o.Title == nil || o.Summary == nil {
		unprocessable(w, "output.title and output.summary are required")
		return false
	}
	if len([]rune(*o.Summary)) > ghaction.MaxSummary || o.Text != nil && len([]rune(*o.Text)) > ghaction.MaxSummary {
		unprocessable(w, "output.summary is too long (maximum is 65535 characters)")
		return false
	}
	if len(o.Annotations) > ghaction.MaxAnnotationsPerRequest {
		unprocessable(w, "Only 50 annotations are allowed per request")
		return false
	}
	for _, a := range o.Annotations {
		if a.GetPath() == "" || a.StartLine == nil || a.EndLine == nil || a.GetMessage() == "" {
			unprocessable(w, "annotation path, start_line, end_line, annotation_level and message are required")
			return false
		}
		switch a.GetAnnotationLevel() {
		case "notice", "warning", "failure":
		default:
			unprocessable(w, "annotation_level must be notice, warning or failure")
			return false
		}
		if a.GetEndLine() < a.GetStartLine() {
			unprocessable(w, "end_line must not precede start_line")
			return false
		}
	}
	return true
}

func (g *GitHub) createCheck(w http.ResponseWriter, body []byte) {
	var req checkReq
	if err := json.Unmarshal(body, &req); err != nil {
		badJSON(w)
		return
	}
	if req.Name == "" || req.HeadSHA == "" {
		unprocessable(w, "name and head_sha are required")
		return
	}
	if req.Conclusion != nil {
		switch *req.Conclusion {
		case "success", "failure", "neutral", "cancelled", "skipped", "timed_out", "action_required":
		default:
			unprocessable(w, "conclusion is invalid")
			return
		}
	}
	if req.Status != nil && *req.Status == "completed" && req.Conclusion == nil {
		unprocessable(w, "conclusion is required when status is completed")
		return
	}
	if !validOutput(w, req) {
		return
	}
	g.nextID++
	cr := &CheckRun{ID: g.nextID, Name: req.Name, HeadSHA: req.HeadSHA}
	if req.Status != nil {
		cr.Status = *req.Status
	}
	if req.Conclusion != nil {
		cr.Conclusion = *req.Conclusion
	}
	if req.Output != nil {
		cr.Title, cr.Summary, cr.Annotations = *req.Output.Title, *req.Output.Summary, req.Output.Annotations
	}
	g.CheckRuns = append(g.CheckRuns, cr)
	writeJSON(w, http.StatusCreated, map[string]any{"id": cr.ID, "name": cr.Name, "head_sha": cr.HeadSHA, "status": cr.Status, "conclusion": cr.Conclusion})
}

func (g *GitHub) updateCheck(w http.ResponseWriter, id string, body []byte) {
	n, _ := strconv.ParseInt(id, 10, 64)
	var cr *CheckRun
	for _, c := range g.CheckRuns {
		if c.ID == n {
			cr = c
		}
	}
	if cr == nil {
		notFound(w)
		return
	}
	var req checkReq
	if err := json.Unmarshal(body, &req); err != nil {
		badJSON(w)
		return
	}
	if !validOutput(w, req) {
		return
	}
	if req.Output != nil {
		cr.Title, cr.Summary = *req.Output.Title, *req.Output.Summary
		cr.Annotations = append(cr.Annotations, req.Output.Annotations...)
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": cr.ID, "name": cr.Name})
}

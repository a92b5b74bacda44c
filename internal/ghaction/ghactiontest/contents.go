package ghactiontest

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
)

// contents is REST "Get repository content" for a file
// (https://docs.github.com/rest/repos/contents#get-repository-content): the file as
// base64 in lines of 60 characters; an unknown ref is 404 "No commit found for the ref
// …", an unknown path 404 "Not Found". The fake knows only the commits given to AddFile,
// so a ref is required.
func (g *GitHub) contents(w http.ResponseWriter, path, ref string) {
	files, ok := g.Contents[ref]
	if !ok {
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "No commit found for the ref " + ref,
			"documentation_url": "https://docs.github.com/rest/repos/contents#get-repository-content"})
		return
	}
	content, ok := files[path]
	if !ok {
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found",
			"documentation_url": "https://docs.github.com/rest/repos/contents#get-repository-content"})
		return
	}
	enc := base64.StdEncoding.EncodeToString([]byte(content))
	var b strings.Builder
	for len(enc) > 60 {
		b.WriteString(enc[:60] + "\n")
		enc = enc[60:]
	}
	b.WriteString(enc + "\n")
	name := path[strings.LastIndex(path, "/")+1:]
	writeJSON(w, http.StatusOK, map[string]any{"type": "file", "encoding": "base64", "size": len(content), "name": name,
		"path": path, "content": b.String(), "sha": fmt.Sprintf("%x", len(content))})
}

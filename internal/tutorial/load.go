package tutorial

import (
	"os"
	"path/filepath"
	"strings"
)

// Load reads and checks a tutorial file.
//
// Placeholder: the foundation work replaces this with the full rules of story 2.
func Load(path string) (*Tutorial, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, raw)
}

// Parse checks and maps tutorial content read from path.
func Parse(path string, raw []byte) (*Tutorial, error) {
	abs, _ := filepath.Abs(path)
	return &Tutorial{Path: path, AbsPath: abs, Dir: filepath.Dir(abs), Raw: raw, Body: string(raw), BodyStartLine: 1,
		Map: &LineMap{lines: strings.Split(string(raw), "\n")}}, nil
}

package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	invopop "github.com/invopop/jsonschema"
)

// Load reads the configuration at path over Default, so fields the file leaves out keep
// their defaults. path "" means FileName in the current directory; when that default file
// does not exist, Load returns the defaults (spec 1.E1). A path given explicitly must exist.
//
// Unknown fields are ignored (1.E3); a near-miss of a known field (maxIteration,
// studentBehaviour) is returned as a warning naming the intended field. Invalid JSON yields a
// *SyntaxError naming line and column (1.E2); invalid values yield a *ValidationError listing
// every problem at once (1.E5, 1.E6). Both are InvalidInput errors. With a
// ValidationError the returned Config holds what could be decoded, for further checks only.
func Load(path string) (Config, []string, error) {
	explicit := path != "" && path != FileName
	if path == "" {
		path = FileName
	}
	data, err := os.ReadFile(path)
	switch {
	case err == nil:
	case errors.Is(err, os.ErrNotExist) && !explicit:
		return Default(), nil, nil
	case errors.Is(err, os.ErrNotExist):
		return Default(), nil, &FileError{Msg: fmt.Sprintf("config file not found: %s (check --config, or omit it to use %s in the current directory or the defaults)", path, FileName), Err: err}
	default:
		if fi, serr := os.Stat(path); serr == nil && fi.IsDir() {
			return Default(), nil, &FileError{Msg: fmt.Sprintf("config %s is a directory: pass the path of a JSON file such as %s/%s", path, path, FileName), Err: err}
		}
		return Default(), nil, &FileError{Msg: fmt.Sprintf("read config %s: %v", path, err), Err: err}
	}
	return Parse(path, data)
}

// Parse is Load for content already read; name is used in messages.
func Parse(name string, data []byte) (Config, []string, error) {
	cfg := Default()
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // editors on Windows add a BOM
	doc, err := decodeDocument(name, data)
	if err != nil {
		return cfg, nil, err
	}
	warnings := nearMisses(name, doc)
	// encoding/json matches field names case-insensitively; the schema does not. Decode
	// only the exactly named fields the schema validated ("MaxIterations" is unknown).
	known, err := json.Marshal(onlyKnown(doc, schemaIndex()[""]))
	if err != nil {
		return cfg, warnings, fmt.Errorf("re-encode %s: %w", name, err)
	}
	if problems := validateDocument(doc); len(problems) > 0 {
		// Best effort, so a caller can still check the tutorial the file names: values of
		// the wrong type are skipped by Unmarshal and keep their defaults.
		_ = json.Unmarshal(known, &cfg)
		return cfg, warnings, &ValidationError{File: name, Problems: problems}
	}
	if err := json.Unmarshal(known, &cfg); err != nil {
		// The schema accepted the document, so only numbers Go cannot hold get here
		// (1e400, an integer beyond int64).
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return Default(), warnings, &ValidationError{File: name, Problems: []Problem{{
				Path: te.Field, Value: te.Value,
				Message: fmt.Sprintf("%s cannot be stored as %s; use a smaller whole number or remove the field to use the default", te.Value, te.Type),
			}}}
		}
		return Default(), warnings, &ValidationError{File: name, Problems: []Problem{{Message: err.Error()}}}
	}
	if problems := cfg.semanticProblems(); len(problems) > 0 {
		return cfg, warnings, &ValidationError{File: name, Problems: problems}
	}
	return cfg, warnings, nil
}

// Validate checks a configuration built in code (for example from Action inputs) with the
// same rules and messages as Load.
func (c Config) Validate() error {
	data, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("marshal config: %w", err)
	}
	doc, err := decodeDocument("configuration", data)
	if err != nil {
		return err
	}
	problems := validateDocument(doc)
	if len(problems) == 0 {
		problems = c.semanticProblems()
	}
	if len(problems) > 0 {
		return &ValidationError{File: "configuration", Problems: problems}
	}
	return nil
}

// decodeDocument decodes data as one JSON value, numbers kept as json.Number.
func decodeDocument(name string, data []byte) (any, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &SyntaxError{File: name, Line: 1, Column: 1,
			Msg: "the file is empty; write {} (or delete the file) to use the defaults"}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	err := dec.Decode(&doc)
	if err == nil {
		rest := int(dec.InputOffset())
		for rest < len(data) && strings.ContainsRune(" \t\r\n", rune(data[rest])) {
			rest++
		}
		if rest < len(data) {
			return nil, syntaxAt(name, data, rest, "unexpected content after the end of the top-level object")
		}
		return doc, nil
	}
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		off := int(se.Offset) - 1
		return nil, syntaxAt(name, data, max(off, 0), se.Error())
	case errors.Is(err, io.ErrUnexpectedEOF):
		return nil, syntaxAt(name, data, len(data), "unexpected end of file: a closing } or ] or \" is missing")
	default:
		return nil, syntaxAt(name, data, 0, err.Error())
	}
}

// syntaxAt builds a SyntaxError for byte offset off of data.
func syntaxAt(name string, data []byte, off int, msg string) *SyntaxError {
	off = min(max(off, 0), len(data))
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	end := bytes.IndexByte(data[start:], '\n')
	if end < 0 {
		end = len(data) - start
	}
	src := strings.ReplaceAll(string(bytes.TrimRight(data[start:start+end], "\r")), "\t", " ")
	col := utf8.RuneCount(data[start:off]) + 1
	if !utf8.ValidString(src) || len(src) > 200 {
		src = ""
	}
	return &SyntaxError{File: name, Line: line, Column: col, Msg: msg, Source: src}
}

// ValidateTutorialPath checks that the tutorial exists and is a file. A missing tutorial
// yields exactly "Tutorial not found: {path}" (spec 1.4, 1.E4).
func ValidateTutorialPath(path string) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return &FileError{Msg: "Tutorial not found: " + path, Err: err}
	case err != nil:
		return &FileError{Msg: fmt.Sprintf("read tutorial %s: %v", path, err), Err: err}
	case fi.IsDir():
		return &FileError{Msg: fmt.Sprintf("tutorial %s is a directory: set \"tutorial\" in %s (or the TUTORIAL argument) to a Markdown file", path, FileName)}
	}
	return nil
}

// onlyKnown returns v without the object members the schema s does not name.
func onlyKnown(v any, s *invopop.Schema) any {
	obj, ok := v.(map[string]any)
	if !ok || s == nil || s.Properties == nil {
		return v
	}
	out := make(map[string]any, len(obj))
	for k, val := range obj {
		if child, ok := s.Properties.Get(k); ok {
			out[k] = onlyKnown(val, child)
		}
	}
	return out
}

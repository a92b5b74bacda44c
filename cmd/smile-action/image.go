package main

import (
	"encoding/json"
	"os"
)

// actionLearnerImage is the learner image of an Action run: the container-image input,
// else containerImage of the trusted configuration file (cfgPath; actionConfig never
// takes it from the checkout) when that file sets it, else the smile-base image
// published with this action version (a development build has none and keeps the
// configuration's default). A missing image is pulled (internal/sandbox).
func actionLearnerImage(input, cfgImage, cfgPath string) string {
	if input != "" {
		return input
	}
	if setsField(cfgPath, "containerImage") {
		return cfgImage
	}
	if img := publishedLearnerImage(version); img != "" {
		return img
	}
	return cfgImage
}

// setsField says whether the JSON object in file path names field at its top level.
func setsField(path, field string) bool {
	if path == "" {
		return false
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return false
	}
	_, ok := m[field]
	return ok
}

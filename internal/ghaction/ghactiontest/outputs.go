package ghactiontest

import "strings"

// ParseOutputs reads a GITHUB_OUTPUT file the way the runner does.
func ParseOutputs(s string) map[string]string {
	out := map[string]string{}
	lines := strings.Split(s, "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if name, delim, ok := strings.Cut(l, "<<"); ok && !strings.Contains(name, "=") {
			var val []string
			for i++; i < len(lines) && lines[i] != delim; i++ {
				val = append(val, lines[i])
			}
			out[name] = strings.Join(val, "\n")
			continue
		}
		if name, val, ok := strings.Cut(l, "="); ok {
			out[name] = val
		}
	}
	return out
}

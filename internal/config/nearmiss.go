package config

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/agnivade/levenshtein"
	invopop "github.com/invopop/jsonschema"
)

// nearMisses warns about unknown fields that look like a known one: a typo, a different
// case, British spelling, a plural, or a known field at the wrong level. Other unknown
// fields are ignored silently (forward compatibility, spec 1.S3).
func nearMisses(file string, doc any) []string {
	root, ok := doc.(map[string]any)
	if !ok {
		return nil
	}
	all := knownPaths()
	var out []string
	var walk func(obj map[string]any, s *invopop.Schema, prefix string)
	walk = func(obj map[string]any, s *invopop.Schema, prefix string) {
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			path := join(prefix, k)
			if s.Properties != nil {
				if child, ok := s.Properties.Get(k); ok {
					if m, ok := obj[k].(map[string]any); ok && child.Properties != nil {
						walk(m, child, path)
					}
					continue
				}
			}
			if intended := suggest(k, s, prefix, all); intended != "" {
				out = append(out, fmt.Sprintf("%s: unknown field %q is ignored; did you mean %q?", file, path, intended))
			}
		}
	}
	walk(root, schemaIndex()[""], "")
	return out
}

// knownPaths lists every field path of smile.json, for misplaced fields.
var knownPaths = sync.OnceValue(func() []string {
	var all []string
	for _, n := range walkSchema(schemaIndex()[""], "") {
		all = append(all, n.path)
	}
	return all
})

// suggest returns the known field path an unknown key at prefix most likely meant, or "".
func suggest(key string, s *invopop.Schema, prefix string, all []string) string {
	best, bestDist := "", 1<<30
	if s.Properties != nil {
		for pair := s.Properties.Oldest(); pair != nil; pair = pair.Next() {
			if d, ok := near(key, pair.Key); ok && d < bestDist {
				best, bestDist = join(prefix, pair.Key), d
			}
		}
	}
	if best != "" {
		return best
	}
	// A known field at another level: "patienceLevel" at the top means studentBehavior.patienceLevel.
	for _, p := range all {
		name := p[strings.LastIndexByte(p, '.')+1:]
		if d, ok := near(key, name); ok && d <= 1 && p != join(prefix, name) {
			return p
		}
	}
	return ""
}

// near reports whether unknown key a plausibly means known field b, and how far apart they are.
func near(a, b string) (int, bool) {
	na, nb := fold(a), fold(b)
	if na == nb {
		return 0, true
	}
	d := levenshtein.ComputeDistance(na, nb)
	limit := 1
	switch {
	case len(nb) > 10:
		limit = 3
	case len(nb) > 4:
		limit = 2
	}
	if d <= limit {
		return d, true
	}
	// A truncated or extended name: "patience" for patienceLevel, "timeout" for timeoutSeconds.
	if len(na) >= 4 && len(nb) >= 4 && (strings.HasPrefix(nb, na) || strings.HasPrefix(na, nb)) {
		return d, true
	}
	return 0, false
}

// fold lower-cases, drops separators and turns British spellings American.
func fold(s string) string {
	s = strings.ToLower(s)
	s = strings.NewReplacer("_", "", "-", "", " ", "", "behaviour", "behavior").Replace(s)
	return s
}

func join(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

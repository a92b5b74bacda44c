package api

import (
	"net/http"

	"github.com/smile-loop/smile-loop/internal/provider"
)

// auth is how a client authenticates: a credential of the credential table
// (internal/provider), applied to every request the way its kind travels.
type auth struct {
	spec provider.Spec
	cred provider.Credential
}

// apiKey is the credential of a client built from a bare key (tests, local servers).
func apiKey(name, key string) auth {
	spec, _ := provider.Lookup(name)
	return auth{spec: spec, cred: provider.Credential{Kind: provider.KindAPIKey, Value: key}}
}

func (a *auth) use(ep Endpoint) { a.cred = ep.Credential }

func (a auth) apply(h http.Header) { a.cred.Apply(a.spec, h) }

package api

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFetchURL(t *testing.T) {
	t.Parallel()
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/missing" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<html><head><style>p{}</style><script>alert(1)</script></head><body><h1>Install</h1><p>Run <code>apt install greet</code> &amp; enjoy.</p></body></html>`))
	}))
	t.Cleanup(page.Close)
	ctx := context.Background()
	tests := []struct {
		name    string
		private bool
		url     string
		want    string
		wantErr string
	}{
		{name: "page as text", private: true, url: page.URL, want: "Install\nRun apt install greet & enjoy."},
		{name: "http error", private: true, url: page.URL + "/missing", wantErr: "HTTP 404"},
		{name: "loopback refused", url: page.URL, wantErr: "refusing a non-public address 127.0.0.1"},
		{name: "metadata refused", url: "http://169.254.169.254/latest/meta-data/", wantErr: "refusing a non-public address"},
		{name: "not http", url: "file:///etc/passwd", wantErr: "absolute http(s) URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := fetchURL(newFetchClient(tt.private))(ctx, fetchURLArgs{URL: tt.url})
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assert.NotContains(t, got, "alert")
		})
	}
}

package api

import (
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/smile-loop/smile-loop/internal/loop"
)

// The native Mentor's web access (spec 6, mentor capabilities): fetch_url reads a public
// web page as text. It runs in the orchestrator, so it refuses every address that is
// not public (loopback, private, shared CGNAT, link-local — cloud metadata —, NAT64 and
// the other special-purpose blocks, multicast; see netrange.go): a tutorial
// cannot use the Mentor to reach the runner's own network.

type fetchURLArgs struct {
	URL string `json:"url" jsonschema:"description=http or https URL of a public page (documentation\\, a README\\, a Q&A thread)"`
}

const maxFetchBody = 512 << 10

var (
	reScript = regexp.MustCompile(`(?is)<(script|style|noscript)[^>]*>.*?</(script|style|noscript)>`)
	reBlock  = regexp.MustCompile(`(?i)<br\s*/?>|</(p|div|h[1-6]|li|tr|pre|section|article|header|footer|table|ul|ol)>`)
	reTag    = regexp.MustCompile(`(?s)<[^>]+>`)
	reBlank  = regexp.MustCompile(`\n\s*\n+`)
)

// errPrivateAddress refuses non-public destinations.
var errPrivateAddress = errors.New("refusing a non-public address")

func publicOnly(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || !isPublic(ip) {
		return fmt.Errorf("%w %s", errPrivateAddress, host)
	}
	return nil
}

// newFetchClient returns the HTTP client of fetch_url; allowPrivate is for tests.
func newFetchClient(allowPrivate bool) *http.Client {
	d := &net.Dialer{Timeout: 10 * time.Second}
	if !allowPrivate {
		d.Control = publicOnly
	}
	tr := &http.Transport{DialContext: d.DialContext, Proxy: nil, TLSHandshakeTimeout: 10 * time.Second, ResponseHeaderTimeout: 15 * time.Second}
	return &http.Client{Transport: tr, Timeout: 30 * time.Second, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if len(via) >= 5 {
			return errors.New("too many redirects")
		}
		return nil
	}}
}

func fetchURL(hc *http.Client) func(ctx context.Context, a fetchURLArgs) (string, error) {
	return func(ctx context.Context, a fetchURLArgs) (string, error) {
		u, err := url.Parse(strings.TrimSpace(a.URL))
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return "", fmt.Errorf("fetch_url needs an absolute http(s) URL, got %q", a.URL)
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
		if err != nil {
			return "", err
		}
		req.Header.Set("User-Agent", "smile-loop-mentor/1 (+https://github.com/smile-loop/smile-loop)")
		resp, err := hc.Do(req)
		if err != nil {
			return "", fmt.Errorf("fetch %s: %w", u.Redacted(), err)
		}
		defer resp.Body.Close()
		data, err := io.ReadAll(io.LimitReader(resp.Body, maxFetchBody))
		if err != nil {
			return "", fmt.Errorf("read %s: %w", u.Redacted(), err)
		}
		if resp.StatusCode/100 != 2 {
			return "", fmt.Errorf("fetch %s: HTTP %d", u.Redacted(), resp.StatusCode)
		}
		text := string(data)
		if strings.Contains(resp.Header.Get("Content-Type"), "html") {
			text = reScript.ReplaceAllString(text, "")
			text = reBlock.ReplaceAllString(text, "\n")
			text = html.UnescapeString(reTag.ReplaceAllString(text, ""))
			text = reBlank.ReplaceAllString(text, "\n\n")
		}
		return loop.ClipMiddle(strings.TrimSpace(text), 16000), nil
	}
}

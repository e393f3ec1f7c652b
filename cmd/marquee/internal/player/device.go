package player

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// device makes the signed calls of one paired screen.
type device struct {
	hc         *http.Client
	server     *url.URL
	screenID   string
	priv       ed25519.PrivateKey
	appVersion string
	now        func() time.Time
}

// statusError is a non-2xx answer. A 5xx (and 429) is worth retrying; most 4xx are not.
type statusError struct {
	code int
	body string
}

func (e *statusError) Error() string {
	return fmt.Sprintf("the server answered %d %s: %s", e.code, http.StatusText(e.code), e.body)
}

// retryable reports whether err is worth a retry. Only an answer that says the request itself is
// bad (400, 413, 415, 422) is final: a network error (the server is down, a connection dropped, a
// timeout), a 5xx, a 429, a 401 (a clock that stepped back into the skew bound, or a screen an
// admin will un-revoke) or a 404 (a proxy or a deploy in progress) must not make the player drop
// its queue.
func retryable(err error) bool {
	var se *statusError
	if errors.As(err, &se) {
		switch se.code {
		case http.StatusBadRequest, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType, http.StatusUnprocessableEntity:
			return false
		}
		return true
	}
	return err != nil
}

// resolve turns a path (with its query) or an absolute URL into an absolute URL on the server.
func (d *device) resolve(ref string) (*url.URL, error) {
	r, err := url.Parse(ref)
	if err != nil {
		return nil, err
	}
	if r.IsAbs() {
		return r, nil
	}
	base := *d.server
	base.Path = strings.TrimSuffix(base.Path, "/") + "/"
	return base.ResolveReference(&url.URL{Path: strings.TrimPrefix(r.Path, "/"), RawQuery: r.RawQuery}), nil
}

// do sends one signed request. The signed path is the request URI as the server receives it, so a
// server mounted under a path prefix verifies the same text.
func (d *device) do(ctx context.Context, method, ref string, body []byte, header http.Header) (*http.Response, error) {
	u, err := d.resolve(ref)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("User-Agent", d.appVersion)
	ts := d.now().Unix()
	req.Header.Set(HeaderScreenID, d.screenID)
	req.Header.Set(HeaderTimestamp, strconv.FormatInt(ts, 10))
	req.Header.Set(HeaderSignature, Sign(d.priv, method, u.RequestURI(), ts, body))
	return d.hc.Do(req)
}

// call sends a signed request and decodes a 2xx JSON answer into out (when out is not nil).
func (d *device) call(ctx context.Context, method, ref string, body []byte, out any) error {
	res, err := d.do(ctx, method, ref, body, nil)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return err
	}
	if res.StatusCode/100 != 2 {
		return &statusError{code: res.StatusCode, body: strings.TrimSpace(string(raw))}
	}
	if out == nil || len(raw) == 0 {
		return nil
	}
	return json.Unmarshal(raw, out)
}

// fetchSchedule asks for the schedule; with etag set, a 304 answers (nil, etag, nil).
func (d *device) fetchSchedule(ctx context.Context, from string, weeks int, etag string) (*Schedule, string, error) {
	q := url.Values{"from": {from}, "weeks": {strconv.Itoa(weeks)}}
	h := http.Header{}
	if etag != "" {
		h.Set("If-None-Match", etag)
	}
	res, err := d.do(ctx, http.MethodGet, "/api/device/schedule?"+q.Encode(), nil, h)
	if err != nil {
		return nil, "", err
	}
	defer res.Body.Close()
	if res.StatusCode == http.StatusNotModified {
		return nil, etag, nil
	}
	raw, err := io.ReadAll(io.LimitReader(res.Body, 8<<20))
	if err != nil {
		return nil, "", err
	}
	if res.StatusCode != http.StatusOK {
		return nil, "", &statusError{code: res.StatusCode, body: strings.TrimSpace(string(raw))}
	}
	var s Schedule
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, "", fmt.Errorf("schedule: %w", err)
	}
	return &s, res.Header.Get("ETag"), nil
}

// ErrChecksum is the refusal of a creative whose bytes do not hash to the schedule's SHA-256.
var ErrChecksum = errors.New("the creative's SHA-256 does not match the schedule")

// download fetches a creative into dir/creatives/<sha256>, hashing it on the way, and keeps it only
// when the hash matches: a player never shows bytes the schedule did not name. The URL is the
// schedule's short-lived one, a credential in itself (PROTOCOL "Schedule"): it is not signed.
func (d *device) download(ctx context.Context, dir string, it Item, maxBytes int64) error {
	want := strings.ToLower(it.SHA256)
	if len(want) != sha256.Size*2 {
		return fmt.Errorf("%w: %q is not a hex SHA-256", ErrChecksum, it.SHA256)
	}
	if _, err := hex.DecodeString(want); err != nil {
		return fmt.Errorf("%w: %q is not a hex SHA-256", ErrChecksum, it.SHA256)
	}
	cacheDir := filepath.Join(dir, "creatives")
	if err := os.MkdirAll(cacheDir, 0o700); err != nil {
		return err
	}
	path := filepath.Join(cacheDir, want)
	if ok, err := fileHashes(path, want); err == nil && ok {
		return nil
	}
	u, err := d.resolve(it.URL)
	if err != nil {
		return fmt.Errorf("creative %s: %w", it.CreativeID, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return err
	}
	req.Header.Set("User-Agent", d.appVersion)
	res, err := d.hc.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		raw, _ := io.ReadAll(io.LimitReader(res.Body, 4<<10))
		return &statusError{code: res.StatusCode, body: strings.TrimSpace(string(raw))}
	}
	tmp, err := os.CreateTemp(cacheDir, ".download-*")
	if err != nil {
		return err
	}
	defer func() { _ = os.Remove(tmp.Name()) }()
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tmp, h), io.LimitReader(res.Body, maxBytes+1))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if n > maxBytes {
		return fmt.Errorf("creative %s is over %d bytes", it.CreativeID, maxBytes)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != want {
		return fmt.Errorf("%w: creative %s hashes to %s, the schedule says %s", ErrChecksum, it.CreativeID, got, want)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	return syncDir(cacheDir)
}

func fileHashes(path, want string) (bool, error) {
	f, err := os.Open(path) // #nosec G304 -- creatives/<hex sha256> in the --queue folder
	if err != nil {
		return false, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return false, err
	}
	return hex.EncodeToString(h.Sum(nil)) == want, nil
}

// PostResult is the server's answer to a batch of plays.
type PostResult struct {
	Accepted   int    `json:"accepted"`
	Duplicates int    `json:"duplicates"`
	BatchHash  string `json:"batch_hash"`
	Flagged    []struct {
		Seq    int64  `json:"seq"`
		Reason string `json:"reason"`
	} `json:"flagged"`
}

package screens

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"io"
	"net/http"

	"marquee/platform/apperr"
	"marquee/platform/httpx"
)

// Device authentication (docs/screens.md "Signed requests"): every device call but the pairing
// carries the screen's id, a unix timestamp and an Ed25519 signature of
// METHOD\nPATH_WITH_QUERY\nTIMESTAMP\nhex(sha256(body)). The kernel runs this check before every
// row marked .Device() (server.DeviceAuth); nothing else accepts the headers.

// Header names of a signed device call.
const (
	HeaderScreenID  = "X-Screen-Id"
	HeaderTimestamp = "X-Screen-Timestamp"
	HeaderSignature = "X-Screen-Signature"
)

type deviceKey struct{}

// deviceOf is the authenticated device of the request.
func deviceOf(ctx context.Context) *Device {
	d, _ := ctx.Value(deviceKey{}).(*Device)
	return d
}

// authenticate checks a signed device call. The body is refused above MaxBodyBytes before it is
// read (declared length) or while it is read (MaxBytesReader), then hashed and put back for the
// handler. A missing or bad signature, a stale timestamp, an unknown or revoked screen: 401, and
// the handler never runs, so nothing is stored.
func (s *service) authenticate(r *http.Request) (*http.Request, error) {
	unauthorized := apperr.New(apperr.EUNAUTHORIZED, MsgDeviceAuth)
	id, ts, sigB64 := r.Header.Get(HeaderScreenID), r.Header.Get(HeaderTimestamp), r.Header.Get(HeaderSignature)
	if id == "" || ts == "" || sigB64 == "" || len(id) > 36 {
		return nil, unauthorized
	}
	now := s.deps.Clock.Now()
	if !FreshTimestamp(ts, now) {
		return nil, apperr.New(apperr.EUNAUTHORIZED, MsgStaleRequest)
	}
	if r.ContentLength > MaxBodyBytes {
		return nil, apperr.New(apperr.ETOOLARGE, httpx.MsgTooLarge)
	}
	var body []byte
	if r.Body != nil {
		var err error
		body, err = io.ReadAll(http.MaxBytesReader(nil, r.Body, MaxBodyBytes))
		if err != nil {
			if httpx.IsTooLarge(err) {
				return nil, apperr.New(apperr.ETOOLARGE, httpx.MsgTooLarge)
			}
			return nil, apperr.New(apperr.EINVALID, httpx.MsgBadJSON)
		}
	}
	sig, err := base64.StdEncoding.DecodeString(sigB64)
	if err != nil || len(sig) != ed25519.SignatureSize {
		return nil, unauthorized
	}
	scr, err := s.store.FindScreen(r.Context(), id)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	if scr == nil {
		return nil, unauthorized
	}
	pub, err := base64.StdEncoding.DecodeString(scr.PublicKey)
	if err != nil || len(pub) != ed25519.PublicKeySize || scr.Status != StatusActive {
		return nil, unauthorized
	}
	hash := BodyHash(body)
	msg := SignedMessage(r.Method, r.URL.RequestURI(), ts, hash)
	if !ed25519.Verify(pub, []byte(msg), sig) {
		return nil, unauthorized
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	d := &Device{ScreenID: scr.ID, FaceID: scr.FaceID, PublicKey: scr.PublicKey, Message: msg, Signature: sigB64, BodyHash: hash}
	r = r.WithContext(context.WithValue(r.Context(), deviceKey{}, d))
	if err := s.store.TouchScreen(r.Context(), scr.ID, now); err != nil {
		s.deps.Log.WarnContext(r.Context(), "screens: last seen not recorded", "screen", scr.ID, "err", err)
	}
	return r, nil
}

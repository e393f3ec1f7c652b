package screens

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"io"
	"net/http"

	"github.com/gin-gonic/gin"
	"gorm.io/gorm"

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
func (s *service) authenticate(c *gin.Context) error {
	unauthorized := apperr.New(apperr.EUNAUTHORIZED, MsgDeviceAuth)
	id, ts, sigB64 := c.GetHeader(HeaderScreenID), c.GetHeader(HeaderTimestamp), c.GetHeader(HeaderSignature)
	if id == "" || ts == "" || sigB64 == "" || len(id) > 36 {
		return unauthorized
	}
	now := s.deps.Clock.Now()
	if !FreshTimestamp(ts, now) {
		return apperr.New(apperr.EUNAUTHORIZED, MsgStaleRequest)
	}
	if c.Request.ContentLength > MaxBodyBytes {
		return apperr.New(apperr.ETOOLARGE, httpx.MsgTooLarge)
	}
	var body []byte
	if c.Request.Body != nil {
		var err error
		body, err = io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, MaxBodyBytes))
		if err != nil {
			if httpx.IsTooLarge(err) {
				return apperr.New(apperr.ETOOLARGE, httpx.MsgTooLarge)
			}
			return apperr.New(apperr.EINVALID, httpx.MsgBadJSON)
		}
	}
	sig, err := base64.StdEncoding.DecodeString(sigB64)
	if err != nil || len(sig) != ed25519.SignatureSize {
		return unauthorized
	}
	scr, err := s.store.FindScreen(c, id)
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return unauthorized
	}
	if err != nil {
		return apperr.Internal(err)
	}
	pub, err := base64.StdEncoding.DecodeString(scr.PublicKey)
	if err != nil || len(pub) != ed25519.PublicKeySize || scr.Status != StatusActive {
		return unauthorized
	}
	hash := BodyHash(body)
	msg := SignedMessage(c.Request.Method, c.Request.URL.RequestURI(), ts, hash)
	if !ed25519.Verify(pub, []byte(msg), sig) {
		return unauthorized
	}
	c.Request.Body = io.NopCloser(bytes.NewReader(body))
	c.Request.ContentLength = int64(len(body))
	d := &Device{ScreenID: scr.ID, FaceID: scr.FaceID, PublicKey: scr.PublicKey, Message: msg, Signature: sigB64, BodyHash: hash}
	c.Request = c.Request.WithContext(context.WithValue(c.Request.Context(), deviceKey{}, d))
	if err := s.store.TouchScreen(c, scr.ID, now); err != nil {
		s.deps.Log.WarnContext(c, "screens: last seen not recorded", "screen", scr.ID, "err", err)
	}
	return nil
}

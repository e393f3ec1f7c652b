package player

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strconv"
)

// The header names of a signed device request (docs/screens.md, "Signed requests").
const (
	HeaderScreenID  = "X-Screen-Id"
	HeaderTimestamp = "X-Screen-Timestamp"
	HeaderSignature = "X-Screen-Signature"
)

// SigningMessage is the text a device signs for one request:
// METHOD "\n" PATH_WITH_QUERY "\n" TIMESTAMP "\n" hex(sha256(body)). An empty body hashes the empty
// string. The server rebuilds the same text from the request it received, so the path is the one
// the server sees (with its query), and the timestamp is the header's decimal unix seconds.
func SigningMessage(method, pathWithQuery string, unix int64, body []byte) []byte {
	sum := sha256.Sum256(body)
	return []byte(method + "\n" + pathWithQuery + "\n" + strconv.FormatInt(unix, 10) + "\n" + hex.EncodeToString(sum[:]))
}

// Sign returns the X-Screen-Signature value of a request: base64 (standard, padded) of the Ed25519
// signature of its SigningMessage.
func Sign(priv ed25519.PrivateKey, method, pathWithQuery string, unix int64, body []byte) string {
	return base64.StdEncoding.EncodeToString(ed25519.Sign(priv, SigningMessage(method, pathWithQuery, unix, body)))
}

// Verify reports whether sig (the header's base64) is pub's signature of the request. The player
// does not need it; a server, a test peer and `marquee verify` do, and one definition keeps them
// from drifting apart.
func Verify(pub ed25519.PublicKey, method, pathWithQuery string, unix int64, body []byte, sig string) bool {
	raw, err := base64.StdEncoding.DecodeString(sig)
	if err != nil || len(raw) != ed25519.SignatureSize || len(pub) != ed25519.PublicKeySize {
		return false
	}
	return ed25519.Verify(pub, SigningMessage(method, pathWithQuery, unix, body), raw)
}

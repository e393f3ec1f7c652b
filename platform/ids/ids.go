// Package ids makes entity identifiers: UUIDv7 strings (DESIGN.md §1.3), time-ordered so primary
// key indexes stay compact.
package ids

import (
	"crypto/rand"
	"encoding/base64"

	"github.com/google/uuid"
)

// New returns a new UUIDv7 string.
func New() string {
	return uuid.Must(uuid.NewV7()).String()
}

// Valid reports whether s is a UUID string.
func Valid(s string) bool {
	_, err := uuid.Parse(s)
	return err == nil && len(s) == 36
}

// Token returns a random URL-safe token with 256 bits of entropy, for sessions and links.
func Token() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand failed: " + err.Error()) // the platform cannot run without randomness
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

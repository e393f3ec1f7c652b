package auth

import (
	"context"
	"strings"

	"github.com/gin-gonic/gin"
)

// API keys (docs/api.md "Authentication"). A key is a bearer credential of a company:
// identity makes and stores them (only the SHA-256 of each key), and platform/auth resolves the
// `Authorization: Bearer <key>` header of an /api/v1 call into a Principal through the KeyResolver
// port, so the platform imports no module.

// Key scopes.
const (
	ScopeRead      = "read"
	ScopeReadWrite = "read-write"
)

// APIKeyPrefix starts every key, so a leaked key is recognisable (secret scanners, logs).
const APIKeyPrefix = "mq_live_"

// KeyResolver turns the hash of a presented key into the principal the key acts as: a principal of
// the key's company with the role "user" and the APIKey fields set; nil when the key is unknown,
// revoked, or its company or maker is disabled. Identity implements it.
type KeyResolver interface {
	ResolveAPIKey(ctx context.Context, hash string) (*Principal, error)
	// TouchAPIKey records the key's last use (time and address); it may skip the write when the
	// stored time is recent (at most once a minute per key).
	TouchAPIKey(ctx context.Context, keyID, ip string)
}

// HashAPIKey is the stored form of a key: hex SHA-256. Keys are 256 bits of randomness, so a fast
// hash is enough: nothing can be guessed faster than the key itself, and argon2's cost, which
// protects low-entropy passwords, would only slow every API call (docs/api.md).
func HashAPIKey(key string) string { return HashToken(key) }

// BearerToken returns the key of an `Authorization: Bearer <key>` header, or "" when the header is
// absent or has another scheme.
func BearerToken(c *gin.Context) string {
	h := c.GetHeader("Authorization")
	if len(h) < 7 || !strings.EqualFold(h[:7], "bearer ") {
		return ""
	}
	return strings.TrimSpace(h[7:])
}

// ResolveKey resolves a presented key into its principal, or nil. Every key takes the same path:
// hash the whole key, then one lookup by the hash (a unique index), so the answer's time does not
// depend on how much of a guess matches a real key, nor on whether it is malformed. Answers are
// cached like sessions (cache.go): a key is revoked by an UPDATE of a table the resolver names in
// PrincipalTables, which ends every cached entry.
func (s *Sessions) ResolveKey(ctx context.Context, key string, r KeyResolver) (*Principal, error) {
	hash := "key:" + HashAPIKey(key)
	if e := s.cache.get(hash); e != nil {
		p := e.p
		return &p, nil
	}
	gen, cacheable := s.cache.begin()
	p, err := r.ResolveAPIKey(ctx, HashAPIKey(key))
	if err != nil || p == nil {
		return nil, err
	}
	s.cache.put(hash, gen, cacheable, &Session{}, p)
	return p, nil
}

// CachedKey reports whether key's principal is answered from memory now (tests, diagnostics).
func (s *Sessions) CachedKey(key string) bool { return s.cache.get("key:"+HashAPIKey(key)) != nil }

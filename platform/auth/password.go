// Package auth holds the platform's authentication pieces: argon2id password hashing, DB-backed
// sessions with hashed tokens and idle and absolute expiry, the session cookie, and the signed-in
// principal of a request (DESIGN.md §3).
package auth

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"runtime"
	"strings"

	"golang.org/x/crypto/argon2"
)

// Params are argon2id's cost parameters. The defaults are OWASP's (19 MiB, 2 passes, 1 lane).
type Params struct {
	MemoryKiB uint32
	Time      uint32
	Threads   uint8
}

// DefaultParams are used for every new hash.
var DefaultParams = Params{MemoryKiB: 19 * 1024, Time: 2, Threads: 1}

// Hasher hashes and verifies passwords. It bounds how many hashes run at once, so a burst of
// sign-ins queues instead of taking 19 MiB each without limit.
type Hasher struct {
	params Params
	slots  chan struct{}
}

// NewHasher returns a hasher with p; at most 2 hashes per CPU run at once.
func NewHasher(p Params) *Hasher {
	return &Hasher{params: p, slots: make(chan struct{}, 2*runtime.NumCPU())}
}

var errMalformedHash = errors.New("malformed password hash")

// Hash returns the PHC string of password: $argon2id$v=19$m=..,t=..,p=..$salt$key.
func (h *Hasher) Hash(ctx context.Context, password string) (string, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	if err := h.acquire(ctx); err != nil {
		return "", err
	}
	defer h.release()
	key := argon2.IDKey([]byte(password), salt, h.params.Time, h.params.MemoryKiB, h.params.Threads, 32)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, h.params.MemoryKiB, h.params.Time, h.params.Threads,
		base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key)), nil
}

// Verify reports whether password matches encoded, in constant time, and whether the hash should be
// replaced because its parameters are older than the hasher's.
func (h *Hasher) Verify(ctx context.Context, password, encoded string) (ok, rehash bool, err error) {
	p, salt, key, err := decode(encoded)
	if err != nil {
		return false, false, err
	}
	if err := h.acquire(ctx); err != nil {
		return false, false, err
	}
	defer h.release()
	got := argon2.IDKey([]byte(password), salt, p.Time, p.MemoryKiB, p.Threads, uint32(len(key))) // #nosec G115 -- the key length is the 32 bytes of a stored hash
	ok = subtle.ConstantTimeCompare(got, key) == 1
	return ok, ok && p != h.params, nil
}

// Burn spends the time of one verification without a stored hash, so that an unknown email takes as
// long as a wrong password (no user enumeration by timing).
func (h *Hasher) Burn(ctx context.Context, password string) {
	_, _, _ = h.Verify(ctx, password, dummyHash)
}

// dummyHash is a valid hash of a random password with the default parameters.
var dummyHash = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$Kq0k8mN9zZ2cM1c4G0v4h3u8n1y6b1x4h7o2q0w3e5r"

func (h *Hasher) acquire(ctx context.Context) error {
	select {
	case h.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (h *Hasher) release() { <-h.slots }

func decode(encoded string) (Params, []byte, []byte, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return Params{}, nil, nil, errMalformedHash
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return Params{}, nil, nil, errMalformedHash
	}
	var p Params
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.MemoryKiB, &p.Time, &p.Threads); err != nil {
		return Params{}, nil, nil, errMalformedHash
	}
	salt, err := base64.RawStdEncoding.DecodeString(parts[4])
	if err != nil {
		return Params{}, nil, nil, errMalformedHash
	}
	key, err := base64.RawStdEncoding.DecodeString(parts[5])
	if err != nil || len(key) < 16 {
		return Params{}, nil, nil, errMalformedHash
	}
	return p, salt, key, nil
}

// Package signing holds the server's signing key behind a port (Signer). Proof-of-play records
// (modules/campaigns) are signed with it; anyone can check them against the public key
// the server publishes (docs/delivery-assurance.md).
package signing

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Signer signs bytes with the server's key. Implementations must be safe for concurrent use.
type Signer interface {
	// Sign returns the signature of msg.
	Sign(msg []byte) ([]byte, error)
	// PublicKey is the key that checks the signatures.
	PublicKey() ed25519.PublicKey
}

// Ed25519 is a Signer holding an Ed25519 private key in memory.
type Ed25519 struct{ key ed25519.PrivateKey }

// NewEd25519 wraps a private key.
func NewEd25519(key ed25519.PrivateKey) *Ed25519 { return &Ed25519{key: key} }

func (s *Ed25519) Sign(msg []byte) ([]byte, error) { return ed25519.Sign(s.key, msg), nil }

func (s *Ed25519) PublicKey() ed25519.PublicKey { return s.key.Public().(ed25519.PublicKey) }

// DevKeyFile is the name of the key generated in DATA_DIR when PROOF_SIGNING_KEY is empty.
const DevKeyFile = "proof-signing-key.pem"

// FromConfig builds the Ed25519 signer from PROOF_SIGNING_KEY: a base64 32-byte seed, or the path
// of a PEM file (PKCS #8, as `openssl genpkey -algorithm ed25519` writes). Empty means a
// development key: generated once into dataDir/proof-signing-key.pem (mode 0600) and reused, so
// restarts keep verifying old records. generated reports whether that file was used.
func FromConfig(value, dataDir string) (s *Ed25519, generated bool, err error) {
	value = strings.TrimSpace(value)
	if value == "" {
		s, err := devKey(filepath.Join(dataDir, DevKeyFile))
		return s, true, err
	}
	if seed, err := base64.StdEncoding.DecodeString(value); err == nil && len(seed) == ed25519.SeedSize {
		return NewEd25519(ed25519.NewKeyFromSeed(seed)), false, nil
	}
	if strings.HasPrefix(value, "-----BEGIN") {
		k, err := ParsePrivatePEM([]byte(value))
		return k, false, err
	}
	raw, err := os.ReadFile(value) // #nosec G304 -- PROOF_SIGNING_KEY: a path the operator configures
	if err != nil {
		return nil, false, fmt.Errorf("PROOF_SIGNING_KEY is neither a base64 32-byte seed nor a readable PEM file: %w", err)
	}
	k, err := ParsePrivatePEM(raw)
	return k, false, err
}

// ParsePrivatePEM reads a PKCS #8 Ed25519 private key.
func ParsePrivatePEM(raw []byte) (*Ed25519, error) {
	b, _ := pem.Decode(raw)
	if b == nil {
		return nil, errors.New("signing: no PEM block in the key")
	}
	k, err := x509.ParsePKCS8PrivateKey(b.Bytes)
	if err != nil {
		return nil, fmt.Errorf("signing: %w", err)
	}
	ek, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, errors.New("signing: the key is not Ed25519")
	}
	return NewEd25519(ek), nil
}

// devKey reads the development key at path, or generates it there. The file is created with
// O_EXCL, so two processes starting at once agree on one key: the loser reads the winner's.
func devKey(path string) (*Ed25519, error) {
	if raw, err := os.ReadFile(path); err == nil { // #nosec G304 -- the development key's fixed name in DATA_DIR
		return ParsePrivatePEM(raw)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600) // #nosec G304 -- the development key's fixed name in DATA_DIR
	if errors.Is(err, os.ErrExist) {
		raw, err := os.ReadFile(path) // #nosec G304 -- the development key's fixed name in DATA_DIR
		if err != nil {
			return nil, err
		}
		return ParsePrivatePEM(raw)
	}
	if err != nil {
		return nil, err
	}
	if err := pem.Encode(f, &pem.Block{Type: "PRIVATE KEY", Bytes: der}); err != nil {
		_ = f.Close()
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	return NewEd25519(priv), nil
}

// PublicPEM is the public key as PEM (SubjectPublicKeyInfo), what `openssl pkeyutl -verify
// -pubin -inkey` reads.
func PublicPEM(pub ed25519.PublicKey) string {
	der, _ := x509.MarshalPKIXPublicKey(pub)
	return string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
}

// KeyID names a public key: the first 16 hex digits of the SHA-256 of its raw 32 bytes. Records
// carry it so a rotated key still tells which key signed an old record.
func KeyID(pub ed25519.PublicKey) string {
	sum := sha256.Sum256(pub)
	return hex.EncodeToString(sum[:8])
}

// Verify checks sig over msg with pub.
func Verify(pub ed25519.PublicKey, msg, sig []byte) bool {
	return len(pub) == ed25519.PublicKeySize && ed25519.Verify(pub, msg, sig)
}

// ParsePublicPEM reads an Ed25519 public key in PEM (SubjectPublicKeyInfo), as PublicPEM writes.
func ParsePublicPEM(raw []byte) (ed25519.PublicKey, error) {
	b, _ := pem.Decode(raw)
	if b == nil {
		return nil, errors.New("signing: no PEM block in the public key")
	}
	k, err := x509.ParsePKIXPublicKey(b.Bytes)
	if err != nil {
		return nil, fmt.Errorf("signing: %w", err)
	}
	pk, ok := k.(ed25519.PublicKey)
	if !ok {
		return nil, errors.New("signing: the public key is not Ed25519")
	}
	return pk, nil
}

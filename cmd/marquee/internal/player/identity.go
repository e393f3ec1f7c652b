package player

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

const (
	keyFile      = "screen.key"    // the device's Ed25519 private key, PKCS #8 PEM, mode 0600
	identityFile = "identity.json" // the pairing's answer: screen and face ids, and the server
)

// identity is what pairing gave the player; it lives in the queue folder so a restarted player
// keeps its screen id and key and does not need a new pairing code.
type identity struct {
	Server   string `json:"server"`
	ScreenID string `json:"screen_id"`
	FaceID   string `json:"face_id"`
	Protocol int    `json:"protocol"`
}

// ErrPairingRefused is returned when the server answers 401 to a pairing: the code is unknown,
// used or expired (PROTOCOL "Pairing").
var ErrPairingRefused = errors.New("the server refused the pairing code (unknown, used or expired)")

// loadOrCreateKey reads the device key from dir, or creates one. The key is written before the
// pairing call: a player that crashes after the server accepted its code must still hold the key
// the server recorded.
func loadOrCreateKey(dir string) (ed25519.PrivateKey, error) {
	path := filepath.Join(dir, keyFile)
	raw, err := os.ReadFile(path) // #nosec G304 -- a fixed name in the --queue folder
	if err == nil {
		block, _ := pem.Decode(raw)
		if block == nil || block.Type != "PRIVATE KEY" {
			return nil, fmt.Errorf("%s: not a PEM private key", path)
		}
		k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		priv, ok := k.(ed25519.PrivateKey)
		if !ok {
			return nil, fmt.Errorf("%s: not an Ed25519 key", path)
		}
		return priv, nil
	}
	if !os.IsNotExist(err) {
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
	if err := writeFileAtomic(path, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600); err != nil {
		return nil, err
	}
	return priv, nil
}

func loadIdentity(dir string) (*identity, error) {
	raw, err := os.ReadFile(filepath.Join(dir, identityFile)) // #nosec G304 -- a fixed name in the --queue folder
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var id identity
	if err := json.Unmarshal(raw, &id); err != nil || id.ScreenID == "" {
		return nil, fmt.Errorf("%s: not a pairing record", filepath.Join(dir, identityFile))
	}
	return &id, nil
}

// pair sends the pairing code and the public key; on 201 it records the screen id.
func pair(ctx context.Context, hc *http.Client, server, dir, code, appVersion string, priv ed25519.PrivateKey) (*identity, error) {
	body, err := json.Marshal(map[string]string{
		"code":        code,
		"public_key":  base64.StdEncoding.EncodeToString(priv.Public().(ed25519.PublicKey)),
		"app_version": appVersion,
	})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, server+"/api/device/pair", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("pair: %w", err)
	}
	defer res.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	switch {
	case res.StatusCode == http.StatusUnauthorized:
		return nil, ErrPairingRefused
	case res.StatusCode != http.StatusCreated && res.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("pair: the server answered %s: %s", res.Status, strings.TrimSpace(string(answer)))
	}
	id := identity{Server: server}
	if err := json.Unmarshal(answer, &id); err != nil || id.ScreenID == "" {
		return nil, fmt.Errorf("pair: the answer holds no screen_id")
	}
	raw, err := json.MarshalIndent(id, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := writeFileAtomic(filepath.Join(dir, identityFile), raw, 0o600); err != nil {
		return nil, err
	}
	return &id, nil
}

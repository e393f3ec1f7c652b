package signing

import (
	"crypto/ed25519"
	"encoding/base64"
	"os"
	"path/filepath"
	"testing"
)

func TestDevKeyIsGeneratedOncePrivateAndReused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, gen, err := FromConfig("", dir)
	if err != nil || !gen {
		t.Fatalf("dev key: %v %v", gen, err)
	}
	st, err := os.Stat(filepath.Join(dir, DevKeyFile))
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode %v, want 0600", st.Mode().Perm())
	}
	b, _, err := FromConfig("", dir)
	if err != nil {
		t.Fatal(err)
	}
	if !a.PublicKey().Equal(b.PublicKey()) {
		t.Fatal("the development key changed between two starts")
	}
	sig, _ := a.Sign([]byte("record"))
	if !Verify(b.PublicKey(), []byte("record"), sig) || Verify(b.PublicKey(), []byte("recorD"), sig) {
		t.Fatal("signature check")
	}
}

func TestConfiguredSeedAndPEMFile(t *testing.T) {
	t.Parallel()
	seed := make([]byte, ed25519.SeedSize)
	for i := range seed {
		seed[i] = byte(i)
	}
	s, gen, err := FromConfig(base64.StdEncoding.EncodeToString(seed), t.TempDir())
	if err != nil || gen {
		t.Fatalf("seed: %v %v", gen, err)
	}
	want := ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey)
	if !s.PublicKey().Equal(want) {
		t.Fatal("seed key differs")
	}
	// A PEM file (as the dev key is written) is read by path.
	dir := t.TempDir()
	d, _, err := FromConfig("", dir)
	if err != nil {
		t.Fatal(err)
	}
	f, _, err := FromConfig(filepath.Join(dir, DevKeyFile), t.TempDir())
	if err != nil || !f.PublicKey().Equal(d.PublicKey()) {
		t.Fatalf("pem file: %v", err)
	}
	if _, _, err := FromConfig("not-a-key", t.TempDir()); err == nil {
		t.Fatal("a bad key was accepted")
	}
	if KeyID(want) == "" || len(KeyID(want)) != 16 || PublicPEM(want) == "" {
		t.Fatal("key id / pem")
	}
}

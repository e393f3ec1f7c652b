package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"marquee/modules/campaigns"
	"marquee/platform/db"
	"marquee/platform/signing"
	"marquee/platform/testkit"
)

// marquee verify checks the demo chain (its code validates), against this server's key and a
// published key file; a record changed in the database makes it name the record, say why and fail.
func TestVerifyCommand(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		dir := t.TempDir()
		env := map[string]string{"DATA_DIR": dir, "LOG_LEVEL": "error"}
		if dialect == db.Postgres {
			env["DATABASE_URL"] = testkit.PostgresURL(t)
		}
		getenv := func(k string) string { return env[k] }
		var out bytes.Buffer
		if err := run(t.Context(), []string{"seed", "--demo"}, getenv, &out); err != nil {
			t.Fatalf("seed: %v\n%s", err, out.String())
		}
		if !strings.Contains(out.String(), "verification code DEMO-PLAY-CODE validates") {
			t.Fatalf("the seed did not print the demo code:\n%s", out.String())
		}
		// The development key was generated into DATA_DIR, private to its owner.
		st, err := os.Stat(filepath.Join(dir, signing.DevKeyFile))
		if err != nil || st.Mode().Perm() != 0o600 {
			t.Fatalf("dev key: %v %v", st, err)
		}
		out.Reset()
		if err := run(t.Context(), []string{"verify", "--code", "demo-play-code"}, getenv, &out); err != nil {
			t.Fatalf("verify: %v\n%s", err, out.String())
		}
		if !strings.Contains(out.String(), "OK: every record") || !strings.Contains(out.String(), "DEMO-PLAY-CODE") {
			t.Fatalf("verify said:\n%s", out.String())
		}
		// Against a key file: the server's public key checks; another key does not.
		k, _, _ := signing.FromConfig("", dir)
		good := filepath.Join(t.TempDir(), "good.pem")
		_ = os.WriteFile(good, []byte(signing.PublicPEM(k.PublicKey())), 0o644)
		out.Reset()
		if err := run(t.Context(), []string{"verify", "--code", "DEMOPLAYCODE", "--key", good}, getenv, &out); err != nil {
			t.Fatalf("verify --key: %v\n%s", err, out.String())
		}
		other, _, _ := signing.FromConfig("", t.TempDir())
		bad := filepath.Join(t.TempDir(), "bad.pem")
		_ = os.WriteFile(bad, []byte(signing.PublicPEM(other.PublicKey())), 0o644)
		out.Reset()
		if err := run(t.Context(), []string{"verify", "--code", "DEMOPLAYCODE", "--key", bad}, getenv, &out); !errors.Is(err, errChainBroken) ||
			!strings.Contains(out.String(), "not the published key") {
			t.Fatalf("verify with another key: %v\n%s", err, out.String())
		}

		// Tamper: the second record's impressions.
		gdb, err := db.Open(db.Options{URL: env["DATABASE_URL"], DataDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close(gdb)
		var campaignID string
		if err := gdb.Raw("SELECT campaign_id FROM campaigns_proof_records WHERE code = ?", campaigns.DemoProofCode).Scan(&campaignID).Error; err != nil {
			t.Fatal(err)
		}
		// A proof pointed at another photo (proof_keys is not signed) fails, naming the
		// record; marquee verify said OK before.
		var recs []struct {
			Seq       int64
			ProofKeys string
		}
		if err := gdb.Raw("SELECT seq, proof_keys FROM campaigns_proof_records WHERE campaign_id = ? ORDER BY seq", campaignID).Scan(&recs).Error; err != nil {
			t.Fatal(err)
		}
		var files []string
		if err := gdb.Raw("SELECT file_key FROM campaigns_proof_files ORDER BY file_key").Scan(&files).Error; err != nil {
			t.Fatal(err)
		}
		swapped := false
		for i := len(recs) - 1; i >= 0 && !swapped; i-- {
			for _, f := range files {
				if recs[i].ProofKeys != "{}" && !strings.Contains(recs[i].ProofKeys, f) {
					var keys map[string]string
					_ = json.Unmarshal([]byte(recs[i].ProofKeys), &keys)
					for id := range keys {
						keys[id] = f
					}
					raw, _ := json.Marshal(keys)
					if err := gdb.Exec("UPDATE campaigns_proof_records SET proof_keys = ? WHERE campaign_id = ? AND seq = ?", string(raw), campaignID, recs[i].Seq).Error; err != nil {
						t.Fatal(err)
					}
					out.Reset()
					err = run(t.Context(), []string{"verify", "--campaign", campaignID}, getenv, &out)
					want := fmt.Sprintf("record %d: proof photo", recs[i].Seq)
					if !errors.Is(err, errChainBroken) || !strings.Contains(out.String(), want) || !strings.Contains(out.String(), "does not match its signed SHA-256") {
						t.Fatalf("swapped photo: %v\n%s", err, out.String())
					}
					if err := gdb.Exec("UPDATE campaigns_proof_records SET proof_keys = ? WHERE campaign_id = ? AND seq = ?", recs[i].ProofKeys, campaignID, recs[i].Seq).Error; err != nil {
						t.Fatal(err)
					}
					swapped = true
					break
				}
			}
		}
		if !swapped {
			t.Fatalf("the demo chain has no proof to swap (%d records, %d files)", len(recs), len(files))
		}

		if err := gdb.Exec(`UPDATE campaigns_proof_records SET canonical = REPLACE(canonical, '"impressions":', '"impressions":1') WHERE campaign_id = ? AND seq = 2`, campaignID).Error; err != nil {
			t.Fatal(err)
		}
		out.Reset()
		err = run(t.Context(), []string{"verify", "--campaign", campaignID}, getenv, &out)
		if !errors.Is(err, errChainBroken) || !strings.Contains(out.String(), "record 2: its content does not match its hash") {
			t.Fatalf("tampered chain: %v\n%s", err, out.String())
		}
	})
}

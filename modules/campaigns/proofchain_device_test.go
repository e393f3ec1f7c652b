package campaigns

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"strings"
	"testing"

	"marquee/modules/campaigns/internal/proofchain"
	"marquee/modules/campaigns/internal/store"
	"marquee/platform/signing"
)

// A device batch's record carries the screen's signature: the chain check verifies it with the
// screen's key, so a record that Marquee signed but the screen did not (a forged batch, or a
// batch hash changed before signing) is a break, even though Marquee's signature holds.
func TestDeviceRecordSignatureIsChecked(t *testing.T) {
	_, server, _ := ed25519.GenerateKey(rand.Reader)
	signer := signing.NewEd25519(server)
	devPub, devPriv, _ := ed25519.GenerateKey(rand.Reader)
	record := func(seq int64, prev string, dev *proofchain.Device) store.ProofRecord {
		f := &proofchain.Fields{Campaign: "c", Code: "CODE", Face: "f", ID: "r" + string(rune('0'+seq)), KeyID: signing.KeyID(signer.PublicKey()),
			Prev: prev, Reason: ProofReasonDeviceBatch, RecordedAt: "2026-11-26T00:00:00.000Z", Seq: seq, V: proofchain.DeviceVersion,
			Week: "2026-11-23", WeekID: "w", Device: dev}
		c := proofchain.Canonical(f)
		sig, _ := signer.Sign(c)
		return store.ProofRecord{ID: f.ID, CampaignID: "c", Seq: seq, WeekID: "w", Canonical: string(c), Hash: proofchain.SHA256Hex(c),
			Signature: base64.StdEncoding.EncodeToString(sig)}
	}
	hash := strings.Repeat("ab", 32)
	msg := "POST\n/api/device/plays\n1795478400\n" + hash
	good := &proofchain.Device{BatchHash: hash, Message: msg, Plays: 3, PublicKey: base64.StdEncoding.EncodeToString(devPub), ScreenID: "s",
		Signature: base64.StdEncoding.EncodeToString(ed25519.Sign(devPriv, []byte(msg)))}
	r1 := record(1, proofchain.Genesis, good)
	if ps, ok := proofchain.Check([]store.ProofRecord{r1}, signer.PublicKey(), true); len(ps) != 0 || !ok {
		t.Fatalf("a good device record: %v %v", ps, ok)
	}
	if !strings.Contains(r1.Canonical, `,"device":{"batch_hash":"`+hash) || proofchain.TextField(r1.Canonical, "prev") != proofchain.Genesis {
		t.Fatalf("canonical = %s", r1.Canonical)
	}
	// The screen's key did not sign this message.
	forged := *good
	_, other, _ := ed25519.GenerateKey(rand.Reader)
	forged.Signature = base64.StdEncoding.EncodeToString(ed25519.Sign(other, []byte(msg)))
	// The message signs another batch than the record names.
	moved := *good
	moved.BatchHash = strings.Repeat("cd", 32)
	for name, dev := range map[string]*proofchain.Device{"forged": &forged, "moved": &moved} {
		ps, sigOK := proofchain.Check([]store.ProofRecord{r1, record(2, r1.Hash, dev)}, signer.PublicKey(), true)
		if !sigOK || len(ps) != 1 || ps[0].Seq != 2 || !strings.Contains(ps[0].Reason, "screen") {
			t.Fatalf("%s: problems %v, server signature %v", name, ps, sigOK)
		}
	}
}

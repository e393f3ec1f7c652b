package campaigns

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"image/png"
	"strings"
	"sync"
	"testing"

	"gorm.io/gorm"

	"marquee/modules/campaigns/internal/proofchain"
	"marquee/modules/campaigns/internal/store"
	"marquee/platform/db"
	"marquee/platform/signing"
	"marquee/platform/testkit"
)

// chainWeeks returns the weeks of a fixture campaign.
func chainWeeks(t *testing.T, f *manageFixture, name string) []Week {
	t.Helper()
	var weeks struct {
		Items []Week `json:"items"`
	}
	f.adv.Get("/api/campaigns/"+f.ids[name]+"/weeks?pageSize=0").Expect(t, 200).JSON(t, &weeks)
	if len(weeks.Items) < 4 {
		t.Fatalf("weeks of %s: %d", name, len(weeks.Items))
	}
	return weeks.Items
}

// uploadProof posts one PNG proof to a week as the admin and returns its bytes' SHA-256.
func uploadProof(t *testing.T, f *manageFixture, weekID string, n int) string {
	t.Helper()
	var img bytes.Buffer
	_ = png.Encode(&img, proofImage(n))
	f.admin.Upload("/api/admin/campaigns/week/"+weekID+"/proofs", "file", testkit.File{Name: "proof.png", Body: img.Bytes()}).Expect(t, 200)
	sum := sha256.Sum256(img.Bytes())
	return hex.EncodeToString(sum[:])
}

func codesOf(t *testing.T, f *manageFixture, name string) map[string]WeekProofCode {
	t.Helper()
	var pc ProofCodes
	f.adv.Get("/api/campaigns/"+f.ids[name]+"/proof-codes").Expect(t, 200).JSON(t, &pc)
	out := map[string]WeekProofCode{}
	for _, w := range pc.Weeks {
		out[w.WeekID] = w
	}
	return out
}

func verify(t *testing.T, c *testkit.Client, code string) VerifyResult {
	t.Helper()
	var v VerifyResult
	res := c.Get("/api/verify/"+code).Expect(t, 200)
	if strings.Contains(string(res.Body), `"problems":null`) {
		t.Fatalf("/api/verify/%s answers problems as null, not a list (the /verify page reads its length): %s", code, res.Body)
	}
	res.JSON(t, &v)
	return v
}

// Every delivery and proof change appends a signed record in its transaction; a correction is a
// new record that replaces the week's previous one; the public page checks signature and chain
// and shows only the record's proofs; the published key checks the signature with plain Ed25519.
func TestProofChainRecordsDeliveryAndProofs(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := startManage(t, dialect)
		name := "Holiday Coffee Push"
		weeks := chainWeeks(t, f, name)
		wk := weeks[0]
		anon := f.s.Client(t)

		if len(codesOf(t, f, name)) != 0 {
			t.Fatal("a chain before any delivery was recorded")
		}
		f.other.Get("/api/campaigns/"+f.ids[name]+"/proof-codes").Expect(t, 404)
		anon.Get("/api/campaigns/"+f.ids[name]+"/proof-codes").Expect(t, 401)

		// 1: delivery. A refused delivery appends nothing.
		f.admin.Put("/api/admin/campaigns/week/"+wk.ID+"/delivery", DeliveryUpdate{ActImp: -1}).Expect(t, 400)
		f.admin.Put("/api/admin/campaigns/week/"+wk.ID+"/delivery", DeliveryUpdate{ActImp: 1000}).Expect(t, 200)
		first := codesOf(t, f, name)[wk.ID]
		if first.Seq != 1 || first.Records != 1 || first.Impressions == nil || *first.Impressions != 1000 || len(first.Code) != 14 ||
			first.Week != wk.StartAt.String() || first.FaceID != wk.ProductID || first.RecordedAt == "" || first.SignedByScreen {
			t.Fatalf("first record = %+v", first)
		}
		// 2: a proof; its SHA-256 is the uploaded bytes'.
		sum := uploadProof(t, f, wk.ID, 2)
		second := codesOf(t, f, name)[wk.ID]
		v := verify(t, anon, second.Code)
		var mine *ProofRecordProof
		for i := range v.Record.Proofs {
			if v.Record.Proofs[i].SHA256 == sum {
				mine = &v.Record.Proofs[i]
			}
		}
		if !v.Valid || !v.ChainValid || !v.SignatureValid || v.ChainLength != 2 || mine == nil ||
			v.Record.Reason != ProofReasonProofsAdded || v.Record.Replaces == "" || v.Superseded {
			t.Fatalf("after the proof: %+v", v)
		}
		if strings.Contains(string(anon.Get("/api/verify/"+second.Code).Body), "Sunrise Coffee") {
			t.Fatal("the public record names the company")
		}
		// Its thumbnail and image load through the code; another record's proof does not.
		th := anon.Get(mine.Thumb).Expect(t, 200)
		if !strings.HasPrefix(th.Header.Get("Content-Type"), "image/") {
			t.Fatalf("thumb content type %q", th.Header.Get("Content-Type"))
		}
		img := anon.Get(mine.URL).Expect(t, 200)
		if got := sha256.Sum256(img.Body); hex.EncodeToString(got[:]) != sum {
			t.Fatal("the served proof is not the hashed one")
		}
		anon.Get("/api/verify/"+first.Code+"/proofs/"+mine.ID).Expect(t, 404)

		// 3: a correction, on another week too: each week's record replaces that week's last.
		f.admin.Put("/api/admin/campaigns/week/"+wk.ID+"/delivery", DeliveryUpdate{ActImp: 900}).Expect(t, 200)
		f.admin.Put("/api/admin/campaigns/week/"+weeks[1].ID+"/delivery", DeliveryUpdate{ActImp: 50}).Expect(t, 200)
		codes := codesOf(t, f, name)
		third := codes[wk.ID]
		if third.Seq != 3 || third.Records != 3 || *third.Impressions != 900 || codes[weeks[1].ID].Seq != 4 || codes[weeks[1].ID].Records != 1 {
			t.Fatalf("after the correction: %+v", codes)
		}
		old := verify(t, anon, first.Code)
		if !old.Valid || !old.Superseded || old.Record.Impressions == nil || *old.Record.Impressions != 1000 {
			t.Fatalf("the corrected record = %+v", old)
		}
		// 4: the proof deleted: the week's new record lists no proof; the old one still does.
		f.admin.Delete("/api/admin/campaigns/proofs/"+mine.ID).Expect(t, 200)
		last := verify(t, anon, codesOf(t, f, name)[wk.ID].Code)
		if !last.Valid || last.Record.Seq != 5 || len(last.Record.Proofs) != len(v.Record.Proofs)-1 || last.Record.Reason != ProofReasonProofDeleted {
			t.Fatalf("after the delete: %+v", last)
		}
		if v2 := verify(t, anon, second.Code); !v2.Valid || len(v2.Record.Proofs) != len(v.Record.Proofs) || !v2.Superseded {
			t.Fatalf("the record with the deleted proof = %+v", v2)
		}
		// The code reads in any case, with or without its dashes.
		verify(t, anon, strings.ToLower(strings.ReplaceAll(second.Code, "-", "")))

		// The published key checks the record with plain Ed25519 over the canonical text, whose
		// SHA-256 is the record's hash.
		pemBody := anon.Get(PublicKeyPath).Expect(t, 200).Body
		pub, err := signing.ParsePublicPEM(pemBody)
		if err != nil {
			t.Fatal(err)
		}
		var jwk map[string]string
		anon.Get(PublicKeyPath+".json").Expect(t, 200).JSON(t, &jwk)
		if jwk["raw"] != base64.StdEncoding.EncodeToString(pub) || jwk["crv"] != "Ed25519" || jwk["kid"] != v.Record.KeyID {
			t.Fatalf("jwk = %v", jwk)
		}
		sig, _ := base64.StdEncoding.DecodeString(last.Record.Signature)
		if !ed25519.Verify(pub, []byte(last.Record.Canonical), sig) {
			t.Fatal("the published key does not check the record")
		}
		if h := sha256.Sum256([]byte(last.Record.Canonical)); hex.EncodeToString(h[:]) != last.Record.Hash {
			t.Fatal("hash is not the canonical text's SHA-256")
		}
		if !strings.Contains(last.Record.Canonical, `"prev":"`+verify(t, anon, codes[weeks[1].ID].Code).Record.Hash+`"`) {
			t.Fatalf("the record does not link to the one before: %s", last.Record.Canonical)
		}
		rep, err := f.m.VerifyCampaignChain(t.Context(), f.ids[name], nil)
		if err != nil || len(rep.Records) != 5 || len(rep.Problems) != 0 {
			t.Fatalf("whole chain = %+v %v", rep, err)
		}
	})
}

// Appends to one campaign's chain take turns: concurrent deliveries give one unbroken chain.
func TestProofChainConcurrentAppends(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := startManage(t, dialect)
		name := "Holiday Coffee Push"
		weeks := chainWeeks(t, f, name)
		var wg sync.WaitGroup
		n := min(len(weeks), 8)
		statuses := make([]int, n*2)
		for i := 0; i < n*2; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				statuses[i] = f.admin.Put("/api/admin/campaigns/week/"+weeks[i%n].ID+"/delivery", DeliveryUpdate{ActImp: int64(100 + i)}).Status
			}(i)
		}
		wg.Wait()
		for i, s := range statuses {
			if s != 200 {
				t.Fatalf("delivery %d answered %d", i, s)
			}
		}
		rep, err := f.m.VerifyCampaignChain(t.Context(), f.ids[name], nil)
		if err != nil || len(rep.Records) != n*2 || len(rep.Problems) != 0 {
			t.Fatalf("chain after concurrent appends: %d records, problems %+v, %v", len(rep.Records), rep.Problems, err)
		}
		for i, r := range rep.Records {
			if r.Seq != int64(i+1) {
				t.Fatalf("record %d has seq %d", i, r.Seq)
			}
		}
	})
}

// A record changed in the database (impressions, a proof's hash, a deleted record, a reordered
// seq) makes /verify and the whole-chain check name the record and say why.
func TestProofChainTamper(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := startManage(t, dialect)
		name := "Holiday Coffee Push"
		weeks := chainWeeks(t, f, name)
		for i := 0; i < 4; i++ {
			f.admin.Put("/api/admin/campaigns/week/"+weeks[i].ID+"/delivery", DeliveryUpdate{ActImp: int64(1000 + i)}).Expect(t, 200)
		}
		uploadProof(t, f, weeks[1].ID, 1) // record 5
		f.admin.Put("/api/admin/campaigns/week/"+weeks[2].ID+"/delivery", DeliveryUpdate{ActImp: 7}).Expect(t, 200)
		lastCode := codesOf(t, f, name)[weeks[2].ID].Code
		anon := f.s.Client(t)
		if v := verify(t, anon, lastCode); !v.Valid {
			t.Fatalf("untouched chain: %+v", v)
		}
		gdb := f.m.deps.DB
		rec := func(seq int64) store.ProofRecord { return proofRecordAt(t, gdb, f.ids[name], seq) }
		exec := func(sql string, args ...any) { mustExec(t, gdb, sql, args...) }
		expectBreak := func(what string, seq int64, reason string) {
			t.Helper()
			v := verify(t, anon, lastCode)
			found := false
			for _, p := range v.Problems {
				found = found || (p.Seq == seq && strings.Contains(p.Reason, reason))
			}
			if v.Valid || v.ChainValid || !found {
				t.Fatalf("%s: /verify = valid %v chain %v problems %+v", what, v.Valid, v.ChainValid, v.Problems)
			}
			rep, err := f.m.VerifyCampaignChain(t.Context(), f.ids[name], nil)
			found = false
			for _, p := range rep.Problems {
				found = found || (p.Seq == seq && strings.Contains(p.Reason, reason))
			}
			if err != nil || !found {
				t.Fatalf("%s: whole chain problems %+v %v", what, rep.Problems, err)
			}
		}
		// Impressions.
		r2 := rec(2)
		exec("UPDATE campaigns_proof_records SET canonical = ? WHERE id = ?", strings.Replace(r2.Canonical, `"impressions":1001`, `"impressions":5000`, 1), r2.ID)
		expectBreak("impressions", 2, "does not match its hash")
		exec("UPDATE campaigns_proof_records SET canonical = ? WHERE id = ?", r2.Canonical, r2.ID)
		// A proof's hash.
		r5 := rec(5)
		exec("UPDATE campaigns_proof_records SET canonical = ? WHERE id = ?", flipAfter(r5.Canonical, `"sha256":"`), r5.ID)
		expectBreak("proof hash", 5, "does not match its hash")
		exec("UPDATE campaigns_proof_records SET canonical = ? WHERE id = ?", r5.Canonical, r5.ID)
		// Impressions and the hash rewritten together: the next record's link breaks.
		r3 := rec(3)
		forged := strings.Replace(r3.Canonical, `"impressions":1002`, `"impressions":1`, 1)
		exec("UPDATE campaigns_proof_records SET canonical = ?, hash = ? WHERE id = ?", forged, proofchain.SHA256Hex([]byte(forged)), r3.ID)
		expectBreak("hash rewritten", 4, "link to the previous record (3)")
		exec("UPDATE campaigns_proof_records SET canonical = ?, hash = ? WHERE id = ?", r3.Canonical, r3.Hash, r3.ID)
		// A deleted record.
		r4 := rec(4)
		exec("DELETE FROM campaigns_proof_records WHERE id = ?", r4.ID)
		expectBreak("deleted", 5, "records 4 to 4 are missing")
		if err := gdb.Create(&r4).Error; err != nil {
			t.Fatal(err)
		}
		// Two records swapped in order.
		swap := func() {
			exec("UPDATE campaigns_proof_records SET seq = -3 WHERE campaign_id = ? AND seq = 3", f.ids[name])
			exec("UPDATE campaigns_proof_records SET seq = 3 WHERE campaign_id = ? AND seq = 4", f.ids[name])
			exec("UPDATE campaigns_proof_records SET seq = 4 WHERE campaign_id = ? AND seq = -3", f.ids[name])
		}
		swap()
		expectBreak("reordered", 3, "it was signed as record 4")
		swap()
		if v := verify(t, anon, lastCode); !v.Valid {
			t.Fatalf("restored chain: %+v", v.Problems)
		}
		_ = db.Postgres
	})
}

// An unknown code and a malformed one answer the same 404, through the same lookup by hash.
func TestVerifyUnknownAndMalformedCodes(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := startManage(t, dialect)
		weeks := chainWeeks(t, f, "Holiday Coffee Push")
		f.admin.Put("/api/admin/campaigns/week/"+weeks[0].ID+"/delivery", DeliveryUpdate{ActImp: 10}).Expect(t, 200)
		real := strings.ReplaceAll(codesOf(t, f, "Holiday Coffee Push")[weeks[0].ID].Code, "-", "")
		anon := f.s.Client(t)
		// The real code with its last character changed (to one it is not: a fixed "Z" was the real
		// code one time in 32).
		last := "Z"
		if strings.HasSuffix(real, last) {
			last = "Y"
		}
		var bodies []string
		for _, code := range []string{"AAAAAAAAAAAA", "not a code!", real[:6], real[:11] + last, strings.Repeat("A", 300)} {
			before := f.m.svc.codeLookups.Load()
			r := anon.Get("/api/verify/"+strings.ReplaceAll(code, " ", "%20")).Expect(t, 404)
			if f.m.svc.codeLookups.Load() != before+1 {
				t.Fatalf("%q did not take the lookup path", code)
			}
			bodies = append(bodies, string(r.Body))
			anon.Get("/api/verify/"+strings.ReplaceAll(code, " ", "%20")+"/proofs/x").Expect(t, 404)
		}
		for _, b := range bodies[1:] {
			if b != bodies[0] || !strings.Contains(b, MsgVerifyNotFound) {
				t.Fatalf("404 bodies differ: %q vs %q", b, bodies[0])
			}
		}
	})
}

// flipAfter changes the character right after the first marker in s (a hex digit: 0 <-> 1).
func flipAfter(s, marker string) string {
	i := strings.Index(s, marker) + len(marker)
	c := byte('0')
	if s[i] == '0' {
		c = '1'
	}
	return s[:i] + string(c) + s[i+1:]
}

// The hand-written canonical text is the JSON any library writes with sorted keys and no spaces
// (docs/delivery-assurance.md: the Python one-liner rebuilds it).
func TestCanonicalIsSortedCompactJSON(t *testing.T) {
	t.Parallel()
	imp := int64(1234)
	for _, f := range []proofchain.Fields{
		{Campaign: "c1", Code: "ABCDEFGH2345", Face: "f", ID: "i", Impressions: &imp, KeyID: "k", Prev: proofchain.Genesis,
			Proofs: []proofchain.Proof{{ID: "p1", SHA256: "aa"}, {ID: "p2", SHA256: "bb"}}, Reason: ProofReasonDelivery,
			RecordedAt: "2026-11-22T12:00:00.000Z", Replaces: "r", Seq: 7, V: 1, Week: "2026-11-09", WeekID: "w"},
		{Campaign: "c\"<x>", Code: "c", Seq: 1, V: 1},
	} {
		got := proofchain.Canonical(&f)
		var generic map[string]any
		if err := json.Unmarshal(got, &generic); err != nil {
			t.Fatalf("not JSON: %s", got)
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(true)
		_ = enc.Encode(generic) // maps marshal with sorted keys
		if want := strings.TrimSuffix(buf.String(), "\n"); want != string(got) {
			t.Fatalf("canonical\n%s\nwant\n%s", got, want)
		}
	}
}

// proof_keys (which file a proof serves) is not signed. Pointing it at another photo
// left /api/verify saying valid and serving the wrong image, and marquee verify said OK. The
// served file is now checked against the SHA-256 the record signs, by the API and the command.
func TestProofPhotoSwapIsCaught(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := startManage(t, dialect)
		name := "Holiday Coffee Push"
		weeks := chainWeeks(t, f, name)
		f.admin.Put("/api/admin/campaigns/week/"+weeks[0].ID+"/delivery", DeliveryUpdate{ActImp: 1000}).Expect(t, 200)
		uploadProof(t, f, weeks[0].ID, 1)
		uploadProof(t, f, weeks[1].ID, 2) // another photo, of another week
		code := codesOf(t, f, name)[weeks[0].ID].Code
		anon := f.s.Client(t)
		v := verify(t, anon, code)
		if !v.Valid || !v.PhotosValid || len(v.Record.Proofs) == 0 || v.Record.Proofs[0].Status != PhotoMatches {
			t.Fatalf("untouched: %+v", v)
		}
		if rep, err := f.m.VerifyCampaignChain(t.Context(), f.ids[name], nil); err != nil || len(rep.Problems) != 0 {
			t.Fatalf("marquee verify, untouched: %+v %v", rep, err)
		}

		// Point the week's first proof at the other week's photo, as someone with the database
		// would.
		gdb := f.m.deps.DB
		keysOf := func(weekID string) map[string]string {
			var recs []store.ProofRecord
			if err := gdb.Where("week_id = ?", weekID).Order("seq").Find(&recs).Error; err != nil || len(recs) == 0 {
				t.Fatal(err)
			}
			var keys map[string]string
			_ = json.Unmarshal([]byte(recs[len(recs)-1].ProofKeys), &keys)
			return keys
		}
		mineKey := keysOf(weeks[0].ID)[v.Record.Proofs[0].ID]
		var otherKey string
		for _, k := range keysOf(weeks[1].ID) {
			otherKey = k
		}
		if mineKey == "" || otherKey == "" || mineKey == otherKey {
			t.Fatalf("keys %q %q", mineKey, otherKey)
		}
		if err := gdb.Exec("UPDATE campaigns_proof_records SET proof_keys = REPLACE(proof_keys, ?, ?) WHERE week_id = ?", mineKey, otherKey, weeks[0].ID).Error; err != nil {
			t.Fatal(err)
		}
		v = verify(t, anon, code)
		if v.Valid || v.PhotosValid || !v.SignatureValid || !v.ChainValid || v.Record.Proofs[0].Status != PhotoMismatch || len(v.Problems) != 1 ||
			!strings.Contains(v.Problems[0].Reason, "does not match its signed SHA-256") {
			t.Fatalf("after the swap: %+v", v)
		}
		rep, err := f.m.VerifyCampaignChain(t.Context(), f.ids[name], nil)
		if err != nil || len(rep.Problems) == 0 || !strings.Contains(rep.Problems[0].Reason, "does not match its signed SHA-256") {
			t.Fatalf("marquee verify after the swap: %+v %v", rep, err)
		}
	})
}

// Superseded records and their codes are reachable, so a verifier outside Marquee
// rebuilds the whole chain from GET /api/verify/{code}/chain alone, as docs/delivery-assurance.md
// says: each record's hash is the SHA-256 of its canonical text, its prev the previous record's
// hash (64 zeros for the first), its signature Ed25519 over the canonical text under the published
// key, and each served photo hashes to the signed sha256.
func TestProofChainExportRebuildsOutside(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := startManage(t, dialect)
		name := "Holiday Coffee Push"
		weeks := chainWeeks(t, f, name)
		f.admin.Put("/api/admin/campaigns/week/"+weeks[0].ID+"/delivery", DeliveryUpdate{ActImp: 1000}).Expect(t, 200)
		uploadProof(t, f, weeks[0].ID, 1)
		f.admin.Put("/api/admin/campaigns/week/"+weeks[0].ID+"/delivery", DeliveryUpdate{ActImp: 900}).Expect(t, 200) // a correction
		f.admin.Put("/api/admin/campaigns/week/"+weeks[1].ID+"/delivery", DeliveryUpdate{ActImp: 50}).Expect(t, 200)
		anon := f.s.Client(t)
		current := codesOf(t, f, name)[weeks[1].ID].Code
		v := verify(t, anon, current)
		var chain ProofChainExport
		anon.Get(v.ChainURL).Expect(t, 200).JSON(t, &chain)
		anon.Get("/api/verify/AAAA-AAAA-AAAA/chain").Expect(t, 404)
		if len(chain.Records) != 4 {
			t.Fatalf("chain of %d records", len(chain.Records))
		}
		pub, err := base64.StdEncoding.DecodeString(chain.PublicKey)
		if err != nil || len(pub) != ed25519.PublicKeySize {
			t.Fatal("public key", err)
		}
		prev := strings.Repeat("0", 64)
		superseded := 0
		for i, r := range chain.Records {
			var fields struct {
				Prev   string `json:"prev"`
				Seq    int64  `json:"seq"`
				Code   string `json:"code"`
				Proofs []struct {
					ID     string `json:"id"`
					SHA256 string `json:"sha256"`
				} `json:"proofs"`
			}
			if err := json.Unmarshal([]byte(r.Canonical), &fields); err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256([]byte(r.Canonical))
			sig, _ := base64.StdEncoding.DecodeString(r.Signature)
			if hex.EncodeToString(sum[:]) != r.Hash || fields.Prev != prev || fields.Seq != int64(i+1) ||
				strings.ReplaceAll(r.Code, "-", "") != fields.Code || !ed25519.Verify(pub, []byte(r.Canonical), sig) {
				t.Fatalf("record %d does not verify: %+v", i+1, r)
			}
			for j, p := range fields.Proofs {
				img := anon.Get(r.Proofs[j].URL).Expect(t, 200)
				if got := sha256.Sum256(img.Body); hex.EncodeToString(got[:]) != p.SHA256 || r.Proofs[j].SHA256 != p.SHA256 {
					t.Fatalf("record %d: proof %s does not hash to its signed sha256", i+1, p.ID)
				}
			}
			// A superseded record's own code still answers, and says which code replaced it.
			if r.Superseded {
				superseded++
				if old := verify(t, anon, r.Code); !old.Superseded || old.SupersededBy == "" {
					t.Fatalf("superseded record %d: %+v", i+1, old)
				}
			}
			prev = r.Hash
		}
		if superseded != 2 {
			t.Fatalf("%d superseded records, want 2", superseded)
		}
	})
}

// proofRecordAt reads a campaign's chain record by its place, for the tamper tests.
func proofRecordAt(t *testing.T, gdb *gorm.DB, campaignID string, seq int64) store.ProofRecord {
	t.Helper()
	var r store.ProofRecord
	if err := gdb.Where("campaign_id = ? AND seq = ?", campaignID, seq).Take(&r).Error; err != nil {
		t.Fatal(err)
	}
	return r
}

// mustExec runs a statement of a tamper test (the database written behind the service's back).
func mustExec(t *testing.T, gdb *gorm.DB, sql string, args ...any) {
	t.Helper()
	if err := gdb.Exec(sql, args...).Error; err != nil {
		t.Fatal(err)
	}
}

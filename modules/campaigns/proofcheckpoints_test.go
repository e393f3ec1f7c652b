package campaigns

import (
	"strings"
	"testing"

	"marquee/modules/campaigns/internal/proofchain"
	"marquee/modules/campaigns/internal/store"
	"marquee/platform/testkit"
)

// The public check walks from the newest checkpoint the job verified, not from the first record:
// a chain of 2,100-odd records gets pending checkpoints at 1,024 and 2,048 as it is appended; the
// job verifies them (and refuses one with a break before it); /verify then starts from the one at
// or before its record and says so. A record changed between the checkpoint and the record breaks
// /verify; one changed before the checkpoint is not read by /verify of later records (whose own
// proof does not depend on it), but its own code, the checkpoint record's comparison and the whole
// walk of marquee verify all report it.
func TestProofCheckpoints(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := startManage(t, dialect)
		name := "Holiday Coffee Push"
		campaign := f.ids[name]
		weeks := chainWeeks(t, f, name)
		const every = store.CheckpointEvery
		rounds := (2*every + 100 + len(weeks) - 1) / len(weeks)
		if _, err := f.m.GenerateProofChain(t.Context(), campaign, rounds); err != nil {
			t.Fatal(err)
		}
		total := int64(rounds * len(weeks))
		gdb := f.m.deps.DB
		rec := func(seq int64) store.ProofRecord { return proofRecordAt(t, gdb, campaign, seq) }
		exec := func(sql string, args ...any) { mustExec(t, gdb, sql, args...) }
		change := func(r store.ProofRecord, rehash bool) {
			t.Helper()
			c := strings.Replace(r.Canonical, `"impressions":`, `"impressions":9`, 1)
			h := r.Hash
			if rehash {
				h = proofchain.SHA256Hex([]byte(c))
			}
			exec("UPDATE campaigns_proof_records SET canonical = ?, hash = ? WHERE id = ?", c, h, r.ID)
		}
		restore := func(r store.ProofRecord) {
			t.Helper()
			exec("UPDATE campaigns_proof_records SET canonical = ?, hash = ? WHERE id = ?", r.Canonical, r.Hash, r.ID)
		}
		anon := f.s.Client(t)
		has := func(ps []ChainProblem, seq int64, reason string) bool {
			for _, p := range ps {
				if p.Seq == seq && strings.Contains(p.Reason, reason) {
					return true
				}
			}
			return false
		}
		cps, err := f.m.svc.store.Checkpoints(t.Context(), campaign)
		if err != nil || len(cps) != 2 || cps[0].Seq != every || cps[1].Seq != 2*every || cps[0].VerifiedAt != nil || cps[0].Hash != rec(every).Hash {
			t.Fatalf("the append's checkpoints: %+v %v", cps, err)
		}
		target := rec(total) // the chain's last record
		// Before the job, /verify walks from the first record.
		if v := verify(t, anon, target.Code); !v.Valid || v.CheckedFrom != 0 || v.CheckpointVerifiedAt != "" || v.ChainLength != total {
			t.Fatalf("before the job: valid %v from %d at %q length %d %+v", v.Valid, v.CheckedFrom, v.CheckpointVerifiedAt, v.ChainLength, v.Problems)
		}

		// The job finds a break before the first checkpoint and verifies nothing past it.
		r500 := rec(500)
		change(r500, false)
		res, err := f.m.RunProofCheckpoints(t.Context())
		if err != nil || res.Verified != 0 || res.Broken != 1 {
			t.Fatalf("the job over a break: %+v %v", res, err)
		}
		cps, _ = f.m.svc.store.Checkpoints(t.Context(), campaign)
		if cps[0].VerifiedAt != nil || !strings.HasPrefix(cps[0].Problem, "record 500: its content does not match its hash") {
			t.Fatalf("the broken checkpoint: %+v", cps[0])
		}
		restore(r500)
		if res, err = f.m.RunProofCheckpoints(t.Context()); err != nil || res.Verified != 2 || res.Broken != 0 || res.Records != 2*every {
			t.Fatalf("the job: %+v %v", res, err)
		}
		if res, err = f.m.RunProofCheckpoints(t.Context()); err != nil || res.Verified+res.Records != 0 {
			t.Fatalf("the job again: %+v %v", res, err)
		}

		// /verify starts from the newest verified checkpoint at or before its record.
		for _, c := range []struct{ seq, from int64 }{{total, 2 * every}, {2 * every, 2 * every}, {2*every - 1, every}, {every + 1, every}, {every - 1, 0}} {
			v := verify(t, anon, rec(c.seq).Code)
			if !v.Valid || v.CheckedFrom != c.from || (c.from > 0) == (v.CheckpointVerifiedAt == "") || v.ChainLength != c.seq {
				t.Fatalf("record %d: valid %v from %d (want %d) at %q length %d %+v", c.seq, v.Valid, v.CheckedFrom, c.from, v.CheckpointVerifiedAt, v.ChainLength, v.Problems)
			}
		}

		// A record changed between the checkpoint and the record: /verify breaks there.
		r := rec(2*every + 10)
		change(r, true)
		if v := verify(t, anon, target.Code); v.Valid || v.ChainValid || !has(v.Problems, 2*every+11, "link to the previous record") {
			t.Fatalf("changed after the checkpoint: valid %v chain %v %+v", v.Valid, v.ChainValid, v.Problems)
		}
		restore(r)

		// A record changed (and rehashed) before the checkpoint: /verify of a later record does not
		// read it and still holds; its own code, and the whole walk, report it.
		r = rec(700)
		change(r, true)
		if v := verify(t, anon, target.Code); !v.Valid || v.CheckedFrom != 2*every {
			t.Fatalf("changed before the checkpoint, a later record: valid %v from %d %+v", v.Valid, v.CheckedFrom, v.Problems)
		}
		if v := verify(t, anon, r.Code); v.Valid || v.SignatureValid {
			t.Fatalf("the changed record's own code: valid %v signature %v %+v", v.Valid, v.SignatureValid, v.Problems)
		}
		if v := verify(t, anon, rec(800).Code); v.Valid || !has(v.Problems, 701, "link to the previous record (700)") {
			t.Fatalf("a record after it, before the checkpoint: valid %v %+v", v.Valid, v.Problems)
		}
		rep, err := f.m.VerifyCampaignChain(t.Context(), campaign, nil)
		if err != nil || !has(rep.Problems, 701, "link to the previous record (700)") {
			t.Fatalf("the whole walk: %+v %v", rep.Problems, err)
		}
		restore(r)

		// The checkpoint's own record changed and rehashed: /verify from it says so, and so does
		// marquee verify's comparison of the checkpoints.
		r = rec(2 * every)
		change(r, true)
		if v := verify(t, anon, target.Code); v.Valid || !has(v.Problems, 2*every, "no longer matches the record verified at this checkpoint") {
			t.Fatalf("the checkpoint's record changed: valid %v %+v", v.Valid, v.Problems)
		}
		rep, _ = f.m.VerifyCampaignChain(t.Context(), campaign, nil)
		if !has(rep.Problems, 2*every, "its hash is not the one its checkpoint kept") {
			t.Fatalf("the whole walk, the checkpoint: %+v", rep.Problems)
		}
		restore(r)
		if rep, _ = f.m.VerifyCampaignChain(t.Context(), campaign, nil); len(rep.Problems) != 0 {
			t.Fatalf("restored: %+v", rep.Problems)
		}
	})
}

// The public chain export answers at most ChainPageRecords records a call: a longer chain comes
// in pages that link up (each page's first record's prev is the last one's hash), next names the
// following page and is empty on the last, and only each week's newest record is current,
// whichever page holds the record that replaces it. A malformed after is refused.
func TestProofChainExportPages(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := startManage(t, dialect)
		campaign := f.ids["Holiday Coffee Push"]
		weeks, err := f.m.svc.store.WeeksOf(t.Context(), campaign)
		if err != nil {
			t.Fatal(err)
		}
		n := ChainPageRecords + 37
		codes, err := f.m.GenerateDeviceChain(t.Context(), campaign, n)
		if err != nil || len(codes) != n {
			t.Fatalf("chain: %d %v", len(codes), err)
		}
		anon := f.s.Client(t)
		var pages []ProofChainExport
		for url := "/api/verify/" + codes[0] + "/chain"; url != ""; {
			var p ProofChainExport
			anon.Get(url).Expect(t, 200).JSON(t, &p)
			pages = append(pages, p)
			url = p.Next
		}
		if len(pages) != 2 || len(pages[0].Records) != ChainPageRecords || len(pages[1].Records) != 37 {
			t.Fatalf("pages: %d", len(pages))
		}
		prev, seq, current := proofchain.Genesis, int64(0), 0
		for _, p := range pages {
			for _, r := range p.Records {
				seq++
				if r.Seq != seq || proofchain.TextField(r.Canonical, "prev") != prev || proofchain.SHA256Hex([]byte(r.Canonical)) != r.Hash {
					t.Fatalf("record %d (seq %d) does not link up", seq, r.Seq)
				}
				prev = r.Hash
				if !r.Superseded {
					current++
				}
			}
		}
		if current != len(weeks) {
			t.Fatalf("%d current records, %d weeks", current, len(weeks))
		}
		for _, bad := range []string{"x", "-1", "99999999999999999999"} {
			anon.Get("/api/verify/"+codes[0]+"/chain?after="+bad).Expect(t, 400)
		}
	})
}

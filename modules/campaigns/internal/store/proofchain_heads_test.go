package store

import (
	"fmt"
	"slices"
	"testing"

	"marquee/platform/db"
	"marquee/platform/testkit"
)

// campaigns-0007 numbers the records already in a chain within their weeks, and WeekHeads then
// answers each week's newest record, whose number is how many records the week has; another
// campaign's records are not read.
func TestProofWeekHeadsMigrationAndQuery(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		gdb := testkit.OpenDB(t, dialect)
		all := Migrations()
		at := slices.Index(all, proofWeekHeadsMigration)
		before := all[:at]
		if at < 1 || before[len(before)-1].ID != "campaigns-0006-delivery-source" {
			t.Fatalf("the migrations' order changed: %d", at)
		}
		if err := db.Migrate(gdb, map[string][]*db.Migration{"campaigns": before}, []string{"campaigns"}); err != nil {
			t.Fatal(err)
		}
		// Campaign c1: week A recorded at seqs 1, 3, 4; week B at 2. Campaign c2: week C at 1 and
		// (a gap does not matter here) at 1,024, a checkpoint's place.
		rows := []struct {
			campaign string
			seq      int64
			week     string
		}{{"c1", 1, "A"}, {"c1", 2, "B"}, {"c1", 3, "A"}, {"c1", 4, "A"}, {"c2", 1, "C"}, {"c2", CheckpointEvery, "C"}}
		for _, r := range rows {
			id := fmt.Sprintf("%s-%d", r.campaign, r.seq)
			if err := gdb.Exec(`INSERT INTO campaigns_proof_records (id, campaign_id, seq, week_id, code, code_hash, canonical, hash, signature, proof_keys)
VALUES (?, ?, ?, ?, ?, ?, '{}', ?, '', '{}')`, id, r.campaign, r.seq, r.week, id, id, "hash-"+id).Error; err != nil {
				t.Fatal(err)
			}
		}
		if err := db.Migrate(gdb, map[string][]*db.Migration{"campaigns": all}, []string{"campaigns"}); err != nil {
			t.Fatal(err)
		}
		var numbered []ProofRecord
		if err := gdb.Order("campaign_id, seq").Find(&numbered).Error; err != nil {
			t.Fatal(err)
		}
		got := ""
		for _, r := range numbered {
			got += fmt.Sprintf("%s:%d ", r.ID, r.WeekRecord)
		}
		if want := "c1-1:1 c1-2:1 c1-3:2 c1-4:3 c2-1:1 c2-1024:2 "; got != want {
			t.Fatalf("week records = %q, want %q", got, want)
		}
		heads, err := New(gdb).WeekHeads(t.Context(), "c1")
		if err != nil {
			t.Fatal(err)
		}
		got = ""
		for _, r := range heads {
			got += fmt.Sprintf("%s:%s:%d ", r.ID, r.WeekID, r.WeekRecord)
		}
		if want := "c1-2:B:1 c1-4:A:3 "; got != want {
			t.Fatalf("heads = %q, want %q", got, want)
		}
		if none, err := New(gdb).WeekHeads(t.Context(), "c3"); err != nil || len(none) != 0 {
			t.Fatalf("an empty chain's heads = %v, %v", none, err)
		}
		// campaigns-0008 marks the checkpoints of the chains already there, pending.
		var cps []ProofCheckpoint
		if err := gdb.Order("campaign_id, seq").Find(&cps).Error; err != nil {
			t.Fatal(err)
		}
		if len(cps) != 1 || cps[0].CampaignID != "c2" || cps[0].Seq != CheckpointEvery || cps[0].Hash != "hash-c2-1024" || cps[0].VerifiedAt != nil {
			t.Fatalf("checkpoints = %+v", cps)
		}
		// campaigns-0009 made the week heads from the chains: c2's week C is at 1,024, its 2nd.
		var h ProofWeekHead
		if err := gdb.Where("campaign_id = ? AND week_id = ?", "c2", "C").Take(&h).Error; err != nil || h.Seq != CheckpointEvery || h.Records != 2 {
			t.Fatalf("c2's head = %+v %v", h, err)
		}
	})
}

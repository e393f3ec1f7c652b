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
		// Campaign c1: week A recorded at seqs 1, 3, 4; week B at 2. Campaign c2: week C at 1.
		rows := []struct {
			campaign string
			seq      int64
			week     string
		}{{"c1", 1, "A"}, {"c1", 2, "B"}, {"c1", 3, "A"}, {"c1", 4, "A"}, {"c2", 1, "C"}}
		for _, r := range rows {
			id := fmt.Sprintf("%s-%d", r.campaign, r.seq)
			if err := gdb.Exec(`INSERT INTO campaigns_proof_records (id, campaign_id, seq, week_id, code, code_hash, canonical, hash, signature, proof_keys)
VALUES (?, ?, ?, ?, ?, ?, '{}', '', '', '{}')`, id, r.campaign, r.seq, r.week, id, id).Error; err != nil {
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
		if want := "c1-1:1 c1-2:1 c1-3:2 c1-4:3 c2-1:1 "; got != want {
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
	})
}

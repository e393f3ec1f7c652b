package audit_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"marquee/platform/audit"
	"marquee/platform/auth"
	"marquee/platform/clock"
	"marquee/platform/db"
	"marquee/platform/pagination"
	"marquee/platform/testkit"
)

func TestRecordJoinsTheCallersTransaction(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		gdb := testkit.OpenDB(t, dialect)
		if err := db.Migrate(gdb, map[string][]*db.Migration{"audit": audit.Migrations()}, []string{"audit"}); err != nil {
			t.Fatal(err)
		}
		clk := clock.NewManual(testkit.StartTime)
		log := audit.New(gdb, clk)
		ctx := auth.WithPrincipal(t.Context(), &auth.Principal{UserID: "01a20fea-0000-7000-8000-000000000001", Email: "admin@example.com", IP: "192.0.2.1"})
		ch := audit.Change{Action: "user.disable", ObjectType: "user", ObjectID: "u1", Before: map[string]string{"status": "active"}, After: map[string]string{"status": "disabled"}}

		// Outside a transaction an entry could outlive a change that failed: refused.
		if err := log.Record(ctx, ch); !errors.Is(err, audit.ErrNoTransaction) {
			t.Fatalf("record outside a transaction = %v", err)
		}
		// A rolled-back change takes its entry with it.
		rollback := errors.New("the change failed")
		err := db.Transact(ctx, gdb, func(ctx context.Context) error {
			if err := log.Record(ctx, ch); err != nil {
				return err
			}
			return rollback
		})
		if !errors.Is(err, rollback) {
			t.Fatal(err)
		}
		list := func(f audit.Filter, q string) pagination.Page[audit.Entry] {
			page, err := log.List(t.Context(), f, pagination.Params{Page: 1, PageSize: 50, Sort: "created_at", Desc: true, Q: q})
			if err != nil {
				t.Fatal(err)
			}
			return page
		}
		if n := list(audit.Filter{}, "").Total; n != 0 {
			t.Fatalf("%d entries after a rollback", n)
		}
		for _, c := range []audit.Change{ch, {Action: "company.update", ObjectType: "company", ObjectID: "c1"}} {
			if err := db.Transact(ctx, gdb, func(ctx context.Context) error { return log.Record(ctx, c) }); err != nil {
				t.Fatal(err)
			}
			clk.Advance(48 * time.Hour)
		}
		all := list(audit.Filter{}, "")
		if all.Total != 2 || all.Items[0].Action != "company.update" || all.Items[1].ActorEmail != "admin@example.com" || all.Items[1].IP != "192.0.2.1" ||
			string(all.Items[1].Before) != `{"status":"active"}` || string(all.Items[0].Before) != "null" {
			t.Fatalf("entries = %+v", all.Items)
		}
		day := testkit.StartTime.Add(24 * time.Hour)
		for name, tc := range map[string]struct {
			f    audit.Filter
			q    string
			want int64
		}{
			"actor email": {audit.Filter{Actor: "ADMIN@"}, "", 2},
			"actor id":    {audit.Filter{Actor: "01a20fea-0000-7000-8000-000000000001"}, "", 2},
			"other actor": {audit.Filter{Actor: "someone"}, "", 0},
			"action":      {audit.Filter{Action: "user.disable"}, "", 1},
			"object":      {audit.Filter{ObjectType: "company", ObjectID: "c1"}, "", 1},
			"from":        {audit.Filter{From: &day}, "", 1},
			"to":          {audit.Filter{To: &day}, "", 1},
			"search":      {audit.Filter{}, "company", 1},
			"wildcard":    {audit.Filter{}, "%", 0}, // matched literally, not as a wildcard: no entry holds a %
			"underscore":  {audit.Filter{}, "user_disable", 0},
		} {
			if got := list(tc.f, tc.q).Total; got != tc.want {
				t.Errorf("%s: %d entries, want %d", name, got, tc.want)
			}
		}
		// Without a principal (the command line, the seed) the actor is "system".
		if err := db.Transact(t.Context(), gdb, func(ctx context.Context) error { return log.Record(ctx, ch) }); err != nil {
			t.Fatal(err)
		}
		if got := list(audit.Filter{Actor: audit.SystemActor}, "").Total; got != 1 {
			t.Fatalf("system entries = %d", got)
		}
	})
}

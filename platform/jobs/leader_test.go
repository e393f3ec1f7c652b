package jobs_test

import (
	"context"
	"testing"
	"time"

	"gorm.io/gorm"

	"marquee/platform/db"
	"marquee/platform/jobs"
	"marquee/platform/testkit"
)

const lockKey = 424242

// openTwice opens the same PostgreSQL database through two pools, as two replicas would.
func openTwice(t *testing.T) (*gorm.DB, *gorm.DB) {
	t.Helper()
	url := testkit.PostgresURL(t) // skips without TEST_DATABASE_URL
	var gdbs [2]*gorm.DB
	for i := range gdbs {
		gdb, err := db.Open(db.Options{URL: url, MaxOpenConns: 4})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close(gdb) })
		gdbs[i] = gdb
	}
	return gdbs[0], gdbs[1]
}

func mustLead(t *testing.T, l jobs.Leader, want bool, who string) {
	t.Helper()
	got, err := l.TryLead(context.Background())
	if err != nil {
		t.Fatalf("%s: TryLead: %v", who, err)
	}
	if got != want {
		t.Fatalf("%s: TryLead = %v, want %v", who, got, want)
	}
}

// advisoryLockHolder returns the backend pid that holds the lock, or 0.
func advisoryLockHolder(t *testing.T, gdb *gorm.DB) int {
	t.Helper()
	var pids []int
	// A bigint key is split into classid (high 32 bits) and objid (low 32 bits). pg_locks shows
	// every database's locks, and parallel tests use the same key in their own databases.
	err := gdb.Raw(`SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = 0 AND objid = ? AND granted
		AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`, lockKey).Scan(&pids).Error
	if err != nil {
		t.Fatal(err)
	}
	if len(pids) == 0 {
		return 0
	}
	return pids[0]
}

func TestPostgresLeaderExactlyOneLeads(t *testing.T) {
	t.Parallel()
	gdbA, gdbB := openTwice(t)
	a, b := jobs.NewPostgresLeader(gdbA, lockKey), jobs.NewPostgresLeader(gdbB, lockKey)
	ctx := context.Background()

	mustLead(t, a, true, "a")
	mustLead(t, b, false, "b")
	mustLead(t, a, true, "a, again") // still alive, still leads
	mustLead(t, b, false, "b, again")

	if err := a.Release(ctx); err != nil {
		t.Fatal(err)
	}
	mustLead(t, b, true, "b after a released")
	mustLead(t, a, false, "a after releasing")

	if err := b.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if pid := advisoryLockHolder(t, gdbA); pid != 0 {
		t.Fatalf("backend %d still holds the lock after both released", pid)
	}
	if err := b.Release(ctx); err != nil {
		t.Fatalf("a second Release = %v", err)
	}
}

// A leader whose session dies (a network cut, a server restart, an admin's kill) loses the lock
// to another replica, and finds out on its next TryLead.
func TestPostgresLeaderLosesTheLeadWithItsSession(t *testing.T) {
	t.Parallel()
	gdbA, gdbB := openTwice(t)
	a, b := jobs.NewPostgresLeader(gdbA, lockKey), jobs.NewPostgresLeader(gdbB, lockKey)
	ctx := context.Background()

	mustLead(t, a, true, "a")
	pid := advisoryLockHolder(t, gdbB)
	if pid == 0 {
		t.Fatal("no backend holds the advisory lock")
	}
	if err := gdbB.Exec("SELECT pg_terminate_backend(?)", pid).Error; err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		leads, err := b.TryLead(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if leads {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("b never took the lead after a's session died")
		}
		time.Sleep(10 * time.Millisecond)
	}
	mustLead(t, a, false, "a after its session died")
}

func TestLeaderFor(t *testing.T) {
	t.Parallel()
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		t.Parallel()
		gdb := testkit.OpenDB(t, dialect)
		l := jobs.LeaderFor(gdb, lockKey)
		mustLead(t, l, true, "the only process")
		if dialect == db.Postgres {
			mustLead(t, jobs.LeaderFor(gdb, lockKey), false, "a second leader on the same key")
		} else {
			mustLead(t, jobs.LeaderFor(gdb, lockKey), true, "a second local leader")
		}
		if err := l.Release(context.Background()); err != nil {
			t.Fatal(err)
		}
	})
}

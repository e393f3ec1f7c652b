package main

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"marquee/cmd/marquee/internal/player"
	"marquee/modules/screens"
	"marquee/platform/db"
	"marquee/platform/testkit"
)

// The reference player against the real binary, through faults (issue 28 "Faults and bad input"):
// the server killed in the middle of ingest, and PostgreSQL restarted in the middle of ingest. In
// both, every play the player played is stored exactly once, and the counted plays in the hourly
// rollups (which the delivery figures read) are exactly the stored plays not flagged: the batches
// the outage cut were sent again, and none was counted twice.

// playerRun is what the tests give the player: seven hours of virtual time in about 20 s. Seven
// hours always hold at least one hour of the demo face's operating hours (06:00 to 24:00 in its
// market's zone), whatever the hour the test runs at, so the player always plays.
func playerRun(url, queue string) player.Options {
	return player.Options{
		Server: url, PairingCode: screens.DemoPairingCode, QueueDir: queue,
		Speed: 1260, Duration: 7 * time.Hour,
		BatchSize: 100, SyncEvery: 30 * time.Minute,
		MinBackoff: 100 * time.Millisecond, MaxBackoff: time.Second, DrainTimeout: 90 * time.Second,
	}
}

// runPlayerThrough runs the player and calls outage once the player has posted its first batches,
// and returns the player's figures.
func runPlayerThrough(t *testing.T, opt player.Options, outage func()) player.Stats {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	done := make(chan struct{})
	var stats player.Stats
	var err error
	go func() {
		defer close(done)
		stats, err = player.Run(ctx, opt)
	}()
	// A third of the run: the player has paired, fetched its schedule and posted.
	select {
	case <-time.After(7 * time.Second):
		outage()
	case <-done:
		t.Fatal("the player ended before the outage")
	}
	<-done
	if err != nil {
		t.Fatalf("player: %v", err)
	}
	t.Logf("player: %+v", stats)
	if stats.Played == 0 {
		t.Fatal("the player played nothing")
	}
	if stats.Queued != 0 || stats.Rejected != 0 {
		t.Fatalf("the player ended with %d plays queued and %d rejected, want none", stats.Queued, stats.Rejected)
	}
	return stats
}

// checkPlaysOnce checks the server's tables against what the player played.
func checkPlaysOnce(t *testing.T, env map[string]string, stats player.Stats) {
	t.Helper()
	gdb := openDB(t, env)
	var stored, counted, rolled int64
	if err := gdb.Raw(`SELECT COUNT(*) FROM screens_plays WHERE screen_id = ?`, stats.ScreenID).Scan(&stored).Error; err != nil {
		t.Fatal(err)
	}
	if err := gdb.Raw(`SELECT COUNT(*) FROM screens_plays WHERE screen_id = ? AND flag = ''`, stats.ScreenID).Scan(&counted).Error; err != nil {
		t.Fatal(err)
	}
	if err := gdb.Raw(`SELECT COALESCE(SUM(plays), 0) FROM screens_rollups WHERE face_id = ?`, stats.FaceID).Scan(&rolled).Error; err != nil {
		t.Fatal(err)
	}
	t.Logf("server: %d plays stored, %d counted, %d in the rollups", stored, counted, rolled)
	if stored != int64(stats.Played) {
		t.Errorf("%d plays stored, the player played %d: a play was lost or stored twice", stored, stats.Played)
	}
	if rolled != counted {
		t.Errorf("the rollups count %d plays, the counted plays stored are %d: a batch was counted twice", rolled, counted)
	}
	if stats.LastSeq-stats.FirstSeq+1 != int64(stats.Played) {
		t.Errorf("seqs %d..%d for %d plays", stats.FirstSeq, stats.LastSeq, stats.Played)
	}
}

// The server is killed in the middle of ingest and started again: the player keeps its plays on
// disk, retries, and the restarted server stores each once.
func TestPlayerThroughAServerKill(t *testing.T) {
	t.Parallel()
	for _, dialect := range testkit.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			env := baseEnv(filepath.Join(t.TempDir(), "data"))
			if dialect == db.Postgres {
				env["DATABASE_URL"] = testkit.PostgresURL(t)
			}
			cli(t, env, "seed", "--demo")
			p := testkit.Serve(t, "player-kill-"+dialect, env)
			stats := runPlayerThrough(t, playerRun(p.URL, t.TempDir()), func() {
				p.Kill()
				time.Sleep(2 * time.Second)
				p.Start()
			})
			if stats.PostFailures == 0 {
				t.Error("no post failed: the kill was not seen")
			}
			checkPlaysOnce(t, env, stats)
		})
	}
}

// PostgreSQL restarts in the middle of ingest: the server answers 503 while it is down, the player
// retries, and no play is lost or counted twice.
func TestPlayerThroughAPostgresRestart(t *testing.T) {
	t.Parallel()
	pg := startPrivatePG(t)
	env := baseEnv(filepath.Join(t.TempDir(), "data"))
	env["DATABASE_URL"] = pg.URL()
	cli(t, env, "seed", "--demo")
	p := testkit.Serve(t, "player-pg-restart", env)
	stats := runPlayerThrough(t, playerRun(p.URL, t.TempDir()), func() {
		pg.Stop()
		time.Sleep(3 * time.Second)
		pg.Start()
	})
	if stats.PostFailures == 0 {
		t.Error("no post failed: the restart was not seen")
	}
	if !p.Running() {
		t.Fatal("Marquee exited")
	}
	checkPlaysOnce(t, env, stats)
}

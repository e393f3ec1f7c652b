package player

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var creatives = map[string][]byte{
	"cr-a": []byte("\x89PNG creative A"),
	"cr-b": []byte("\x89PNG creative B"),
}

// opts are fast options: 8 s slots at speed 480 are 1/60 s each.
func opts(f *fakeServer, dir string, played time.Duration) Options {
	return Options{
		Server: f.srv.URL, PairingCode: f.code, QueueDir: dir,
		Speed: 480, Duration: played, BatchSize: 20,
		MinBackoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond, DrainTimeout: 5 * time.Second,
	}
}

func run(t *testing.T, o Options) Stats {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st, err := Run(ctx, o)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return st
}

// checkContiguous fails unless the server holds exactly the seqs from..to, each play starting one
// 8 s slot after the one before (the fake's hours are all day, so no slot is dark): a play lost,
// doubled, or re-stamped on a retry breaks it.
func checkContiguous(t *testing.T, plays map[int64]Play, from, to int64) {
	t.Helper()
	for s := range plays {
		if s < 1 {
			t.Errorf("seq %d: seqs start at 1", s)
		}
	}
	first, ok := plays[from]
	if !ok {
		t.Fatalf("seq %d missing", from)
	}
	for s := from; s <= to; s++ {
		p, ok := plays[s]
		if !ok {
			t.Errorf("seq %d missing", s)
			continue
		}
		if want := first.StartedAt.Add(time.Duration(s-from) * 8 * time.Second); !p.StartedAt.Equal(want) {
			t.Errorf("seq %d started at %s, want %s", s, p.StartedAt, want)
		}
		if p.DurationMS != 8000 {
			t.Errorf("seq %d lasted %d ms", s, p.DurationMS)
		}
	}
}

func TestPlayerSignsEveryCallAndPostsEveryPlay(t *testing.T) {
	f := newFakeServer(t, creatives, nil)
	dir := t.TempDir()
	st := run(t, opts(f, dir, 10*time.Minute))

	if st.Played != 75 { // 600 s / 8 s
		t.Errorf("played %d, want 75", st.Played)
	}
	if st.Posted != st.Played || st.Accepted != st.Played || st.Queued != 0 || st.Duplicates != 0 {
		t.Errorf("stats %+v: want every play posted and accepted once", st)
	}
	plays, _, conflicts := f.stored()
	if len(plays) != 75 {
		t.Errorf("the server holds %d plays, want 75", len(plays))
	}
	checkContiguous(t, plays, 1, 75)
	if len(conflicts) > 0 {
		t.Error(conflicts)
	}
	f.mu.Lock()
	badSigs, signedOK, heartbeats, pairs := f.badSigs, f.signedOK, f.heartbeats, f.pairs
	f.mu.Unlock()
	if badSigs != 0 || signedOK == 0 {
		t.Errorf("%d requests failed the signature check, %d passed", badSigs, signedOK)
	}
	if pairs != 1 || !st.Paired || st.ScreenID != f.screenID {
		t.Errorf("pairs %d, stats %+v", pairs, st)
	}
	// A heartbeat per minute of virtual time (9 marks inside 10 minutes) and one at the end; a
	// beat is skipped when the previous one is still in flight, which a loaded machine may cause.
	if heartbeats < 6 || st.Heartbeats != heartbeats {
		t.Errorf("heartbeats: server %d, player %d; want about 10", heartbeats, st.Heartbeats)
	}
	// Round-robin over the week's two creatives, no play in the future.
	counts := map[string]int{}
	for _, p := range plays {
		counts[p.CreativeID]++
		if p.StartedAt.After(time.Now()) {
			t.Errorf("seq %d starts in the future", p.Seq)
		}
	}
	if counts["cr-a"] < 37 || counts["cr-b"] < 37 {
		t.Errorf("creatives played %v, want a round-robin", counts)
	}
	if left, _ := os.ReadDir(filepath.Join(dir, batchDir)); len(left) != 0 {
		t.Errorf("%d batch files left after every 200", len(left))
	}
	info, err := os.Stat(filepath.Join(dir, keyFile))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("key file: %v %v", info, err)
	}
}

// The fake's signature check is what the test above relies on: it must refuse another key, a
// changed body, another path and a stale timestamp.
func TestSignatureCoversMethodPathTimestampAndBody(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	_, other, _ := ed25519.GenerateKey(rand.Reader)
	body := []byte(`{"plays":[]}`)
	sig := Sign(priv, "POST", "/api/device/plays", 1700000000, body)
	if !Verify(pub, "POST", "/api/device/plays", 1700000000, body, sig) {
		t.Fatal("a good signature does not verify")
	}
	for name, ok := range map[string]bool{
		"other key":  Verify(pub, "POST", "/api/device/plays", 1700000000, body, Sign(other, "POST", "/api/device/plays", 1700000000, body)),
		"other body": Verify(pub, "POST", "/api/device/plays", 1700000000, []byte(`{"plays":[{}]}`), sig),
		"other path": Verify(pub, "POST", "/api/device/plays?x=1", 1700000000, body, sig),
		"other verb": Verify(pub, "PUT", "/api/device/plays", 1700000000, body, sig),
		"other time": Verify(pub, "POST", "/api/device/plays", 1700000001, body, sig),
		"not base64": Verify(pub, "POST", "/api/device/plays", 1700000000, body, "***"),
	} {
		if ok {
			t.Errorf("%s: verified", name)
		}
	}
	if got := string(SigningMessage("GET", "/api/device/schedule?weeks=2", 5, nil)); got !=
		"GET\n/api/device/schedule?weeks=2\n5\ne3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" {
		t.Errorf("message %q: the empty body hashes the empty string", got)
	}

	// And the fake answers 401 to a request signed with a key it did not pair.
	f := newFakeServer(t, creatives, nil)
	run(t, opts(f, t.TempDir(), time.Minute))
	server, _ := http.NewRequest(http.MethodGet, f.srv.URL, nil)
	d := &device{hc: http.DefaultClient, server: server.URL, screenID: f.screenID, priv: other, appVersion: AppVersion, now: time.Now}
	err := d.call(context.Background(), http.MethodPost, "/api/device/heartbeat", []byte(`{"app_version":"x"}`), nil)
	var se *statusError
	if !errors.As(err, &se) || se.code != http.StatusUnauthorized {
		t.Errorf("a foreign key's heartbeat: %v, want 401", err)
	}
}

func TestPlayerRefusesACreativeWhoseSHA256DoesNotMatch(t *testing.T) {
	f := newFakeServer(t, creatives, map[string]bool{"cr-b": true})
	dir := t.TempDir()
	st := run(t, opts(f, dir, 2*time.Minute))

	if st.CreativesRefused != 1 || st.CreativesVerified != 1 {
		t.Errorf("verified %d, refused %d; want 1 and 1", st.CreativesVerified, st.CreativesRefused)
	}
	plays, _, _ := f.stored()
	if len(plays) != 15 || st.Played != 15 {
		t.Errorf("played %d, stored %d; want 15 (every slot shows the good creative)", st.Played, len(plays))
	}
	for _, p := range plays {
		if p.CreativeID != "cr-a" {
			t.Errorf("seq %d played %s, whose bytes do not match the schedule", p.Seq, p.CreativeID)
		}
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "creatives"))
	if len(entries) != 1 {
		t.Errorf("creatives on disk: %d, want only the verified one", len(entries))
	}
}

func TestPlayerOutageLosesNoPlayAndDoublesNone(t *testing.T) {
	f := newFakeServer(t, creatives, nil)
	dir := t.TempDir()
	o := opts(f, dir, 20*time.Minute) // 150 slots in 2.5 s of wall time
	o.BatchSize = 10
	go func() {
		// Up, then unreachable (dropped connections), then answering 503, then storing plays but
		// dropping the answer (the player must resend; the server must count once), then up.
		for _, step := range []struct {
			after time.Duration
			mode  int32
		}{{400 * time.Millisecond, modeDrop}, {700 * time.Millisecond, mode503}, {500 * time.Millisecond, modeStoreAndDrop}, {300 * time.Millisecond, modeUp}} {
			time.Sleep(step.after)
			f.mode.Store(step.mode)
		}
	}()
	st := run(t, o)

	if st.Played != 150 {
		t.Errorf("played %d, want 150", st.Played)
	}
	if st.PostFailures == 0 {
		t.Error("no post failed: the outage did not happen")
	}
	if st.Queued != 0 {
		t.Errorf("%d plays still queued after the drain", st.Queued)
	}
	plays, dups, conflicts := f.stored()
	if len(plays) != st.Played {
		t.Errorf("the server holds %d plays, the player played %d", len(plays), st.Played)
	}
	checkContiguous(t, plays, 1, int64(st.Played))
	if len(conflicts) > 0 {
		t.Errorf("a resent seq changed: %v", conflicts)
	}
	t.Logf("stats %+v; server duplicates %d", st, dups)
}

func TestPlayerRestartKeepsItsKeyAndResumesTheSequence(t *testing.T) {
	f := newFakeServer(t, creatives, nil)
	dir := t.TempDir()

	// First process: the plays endpoint is down the whole run, so everything stays queued.
	f.mode.Store(modePlays503)
	o := opts(f, dir, 2*time.Minute)
	o.DrainTimeout = 200 * time.Millisecond
	first := run(t, o)
	if first.Played != 15 || first.Queued != 15 || first.Posted != 0 {
		t.Fatalf("first run %+v: want 15 played and queued", first)
	}

	// Second process on the same folder, no pairing code: it keeps the screen and key, posts the
	// old batches first, and numbers on from where the first stopped.
	f.mode.Store(modeUp)
	o = opts(f, dir, 2*time.Minute)
	o.PairingCode = ""
	second := run(t, o)
	if second.Paired || second.ScreenID != first.ScreenID {
		t.Errorf("second run paired again or changed screen: %+v", second)
	}
	if second.FirstSeq != first.LastSeq+1 {
		t.Errorf("second run starts at seq %d, want %d", second.FirstSeq, first.LastSeq+1)
	}
	if second.Posted != first.Played+second.Played || second.Queued != 0 {
		t.Errorf("second run posted %d, want %d", second.Posted, first.Played+second.Played)
	}
	plays, _, conflicts := f.stored()
	if len(plays) != 30 || len(conflicts) != 0 {
		t.Errorf("the server holds %d plays (%v), want 30", len(plays), conflicts)
	}
	checkContiguous(t, plays, 1, 15)
	checkContiguous(t, plays, 16, 30)
	f.mu.Lock()
	pairs, badSigs := f.pairs, f.badSigs
	f.mu.Unlock()
	if pairs != 1 || badSigs != 0 {
		t.Errorf("pairs %d, bad signatures %d: the restart must reuse the key", pairs, badSigs)
	}
}

func TestPlayerPollsTheScheduleWithIfNoneMatch(t *testing.T) {
	f := newFakeServer(t, creatives, nil)
	st := run(t, opts(f, t.TempDir(), 5*time.Minute))
	f.mu.Lock()
	nm := f.notModified
	f.mu.Unlock()
	// One 200 at the start, then a poll a minute: four marks inside 5 minutes (a poll is skipped
	// while the previous one is in flight).
	if st.ScheduleFetches != 1 || st.ScheduleNotModified < 3 || nm != st.ScheduleNotModified {
		t.Errorf("fetches %d, 304s %d (server %d); want 1 and about 4", st.ScheduleFetches, st.ScheduleNotModified, nm)
	}
}

func TestPlayerRefusedPairingCode(t *testing.T) {
	f := newFakeServer(t, creatives, nil)
	dir := t.TempDir()
	o := opts(f, dir, time.Minute)
	o.PairingCode = "WRONG-CODE"
	_, err := Run(context.Background(), o)
	if !errors.Is(err, ErrPairingRefused) {
		t.Fatalf("Run: %v, want ErrPairingRefused", err)
	}
	if _, err := os.Stat(filepath.Join(dir, identityFile)); !os.IsNotExist(err) {
		t.Errorf("a refused pairing left %s", identityFile)
	}
}

func TestOptionsRefuseAFastClockWithoutAnEnd(t *testing.T) {
	_, err := Run(context.Background(), Options{Server: "http://127.0.0.1:1", QueueDir: t.TempDir(), Speed: 10})
	if err == nil || !strings.Contains(err.Error(), "--duration is required") {
		t.Errorf("Run: %v", err)
	}
}

// A player restarted while the server is unreachable plays from the schedule and the creatives it
// saved, queues the plays, and posts them when a later run reaches the server.
func TestPlayerRestartedDuringAnOutagePlaysItsSavedSchedule(t *testing.T) {
	f := newFakeServer(t, creatives, nil)
	dir := t.TempDir()
	first := run(t, opts(f, dir, time.Minute))

	f.mode.Store(modeDrop)
	o := opts(f, dir, 2*time.Minute)
	o.DrainTimeout = 200 * time.Millisecond
	second := run(t, o)
	if second.Played != 15 || second.Queued != 15 || second.Posted != 0 || second.ScheduleFetches != 0 {
		t.Fatalf("during the outage: %+v; want 15 played from the saved schedule, all queued", second)
	}

	f.mode.Store(modeUp)
	third := run(t, opts(f, dir, time.Minute))
	if third.ScheduleNotModified == 0 || third.ScheduleFetches != 0 {
		t.Errorf("the saved ETag was not sent: %+v", third)
	}
	plays, _, conflicts := f.stored()
	total := first.Played + second.Played + third.Played
	if len(plays) != total || third.Queued != 0 || len(conflicts) != 0 {
		t.Errorf("the server holds %d plays, want %d (%v)", len(plays), total, conflicts)
	}
	checkContiguous(t, plays, second.FirstSeq, second.LastSeq)
}

// A batch the server calls malformed (422) is set aside under rejected/ and does not block the
// batches behind it; a 503 does not set anything aside.
func TestPlayerSetsAsideABatchTheServerRefuses(t *testing.T) {
	f := newFakeServer(t, creatives, nil)
	f.rejectSeq.Store(3)
	dir := t.TempDir()
	st := run(t, opts(f, dir, 5*time.Minute))
	rejected, _ := os.ReadDir(filepath.Join(dir, rejectedDir))
	if len(rejected) != 1 || rejected[0].Name() != "batch-00000000000000000001.jsonl" {
		t.Fatalf("rejected/: %v", rejected)
	}
	q := &queue{dir: dir}
	set, err := q.read(filepath.Join(dir, rejectedDir, rejected[0].Name()))
	if err != nil || len(set) == 0 || set[0].Seq != 1 {
		t.Fatalf("the rejected batch: %v %v", set, err)
	}
	if st.Played != 38 || st.Rejected != len(set) || st.Posted != st.Played-len(set) || st.Queued != 0 {
		t.Errorf("stats %+v: want the first batch (%d plays) set aside and the rest posted", st, len(set))
	}
	plays, _, _ := f.stored()
	if len(plays) != st.Posted {
		t.Errorf("the server holds %d plays, want %d", len(plays), st.Posted)
	}
	checkContiguous(t, plays, int64(len(set))+1, int64(st.Played))
}

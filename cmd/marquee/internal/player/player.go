// Package player is Marquee's reference player (issue 28, "A reference player"): it pairs with a
// face, pulls the schedule, downloads and verifies the creatives, "plays" the loop on a virtual
// clock at N times real time, and posts signed batches of plays and heartbeats, following
// docs/screens.md (the player protocol v1). Plays are written to an on-disk queue before they are
// posted and deleted only after the server's 200, so a server outage or a restart loses none.
//
// `marquee dev player` is its command line; tests and benchmarks call Run.
package player

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"
)

// AppVersion is what the player reports as its app_version.
const AppVersion = "marquee-player/1.0"

// Protocol limits (PROTOCOL "Plays"): a batch holds at most 1,000 plays in at most 256 KiB.
const (
	MaxBatchPlays = 1000
	MaxBatchBytes = 256 << 10
	// batchBytesTarget leaves room under MaxBatchBytes for the envelope and long ids.
	batchBytesTarget = 192 << 10
)

// Options configure one run of the player.
type Options struct {
	Server      string // the Marquee base URL, e.g. http://127.0.0.1:8080
	PairingCode string // needed only when QueueDir holds no pairing yet
	QueueDir    string // the device's state: key, pairing, sequence, queued batches, creatives

	// Speed is how many seconds of virtual time pass per real second (1 = real time).
	Speed float64
	// Duration is how much virtual time to play; the run then takes Duration/Speed of wall time.
	// 0 plays until ctx is done, which needs Speed 1 (a faster clock would run into the future).
	Duration time.Duration

	BatchSize       int           // plays per batch file; default 500, at most MaxBatchPlays
	Weeks           int           // weeks of schedule to ask for; default 2, at most 8
	SyncEvery       time.Duration // virtual time between schedule polls and heartbeats; default 1 min
	MinBackoff      time.Duration // first wait after a failed post; default 250 ms
	MaxBackoff      time.Duration // longest wait between retries; default 30 s
	DrainTimeout    time.Duration // wall time to keep posting the queue after the last play; default 30 s
	MaxCreativeSize int64         // bytes; default 512 MiB
	HTTPClient      *http.Client  // default: 15 s timeout
	Logger          *slog.Logger  // default: discard
}

// Stats counts what one run did. The lead's end-to-end test compares them with the server's
// delivery figures.
type Stats struct {
	ScreenID string
	FaceID   string
	Paired   bool  // this run used the pairing code (false: the queue folder held a pairing)
	FirstSeq int64 // the seq of this run's first play (0 when it played none)
	LastSeq  int64 // the seq of this run's last play

	Played     int // plays this run recorded
	Posted     int // plays in batches the server answered 200 (this run; older queued ones too)
	Accepted   int // as the server counted them
	Duplicates int
	Flagged    int
	Queued     int // plays still on disk when the run ended (posted by the next run)
	Rejected   int // plays in batches the server refused as malformed (400, 413, 415, 422); kept under rejected/

	Batches      int // batches answered 200
	PostFailures int // post attempts that failed and will be retried

	ScheduleFetches     int // 200 answers
	ScheduleNotModified int // 304 answers
	CreativesVerified   int // distinct creatives downloaded (or found cached) with a matching SHA-256
	CreativesRefused    int // distinct creatives refused: SHA-256 mismatch
	Heartbeats          int // heartbeats answered 2xx
}

// state is what the play loop reads on every slot; the syncer swaps it whole.
type state struct {
	plan  *plan
	ready map[string]bool // creative id -> its bytes are on disk and verified
}

type runner struct {
	opt Options
	log *slog.Logger
	dev *device
	q   *queue

	mu    sync.Mutex
	stats Stats

	cur       atomic.Pointer[state]
	etag      string          // the syncer's; only it touches etag and from
	from      string          // the `from` the etag belongs to
	refused   map[string]bool // creative ids refused, counted once
	verified  map[string]bool
	current   atomic.Value // string: the creative on screen, for the heartbeat
	lastError atomic.Value // string
}

// Run plays until Duration of virtual time has been played (or ctx is done), then keeps posting
// the queue for up to DrainTimeout. It returns what it did. Stopping through ctx is a normal end
// (the unposted plays are on disk) and returns a nil error; a pairing refusal or an unusable queue
// folder returns an error.
func Run(ctx context.Context, opt Options) (Stats, error) {
	if err := opt.defaults(); err != nil {
		return Stats{}, err
	}
	r := &runner{opt: opt, log: opt.Logger, refused: map[string]bool{}, verified: map[string]bool{}}
	r.current.Store("")
	r.lastError.Store("")
	if err := r.open(ctx); err != nil {
		return r.snapshot(), err
	}
	err := r.run(ctx)
	if n, qerr := r.q.pending(); qerr == nil {
		r.mu.Lock()
		r.stats.Queued = n
		r.mu.Unlock()
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		err = nil
	}
	return r.snapshot(), err
}

func (o *Options) defaults() error {
	o.Server = strings.TrimRight(o.Server, "/")
	u, err := url.Parse(o.Server)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("--server %q is not an http(s) URL", o.Server)
	}
	if o.QueueDir == "" {
		return errors.New("a queue folder is required")
	}
	if o.Speed == 0 {
		o.Speed = 1
	}
	if o.Speed < 1 || o.Speed > 1e6 {
		return errors.New("--speed must be between 1 and 1000000")
	}
	if o.Duration < 0 {
		return errors.New("--duration must not be negative")
	}
	if o.Duration == 0 && o.Speed != 1 {
		return errors.New("--duration is required with --speed above 1: plays may not start in the future")
	}
	if o.Duration > 14*24*time.Hour {
		return errors.New("--duration is at most 14 days: the server accepts plays up to 14 days old")
	}
	if o.BatchSize <= 0 {
		o.BatchSize = 500
	}
	o.BatchSize = min(o.BatchSize, MaxBatchPlays)
	if o.Weeks <= 0 {
		o.Weeks = 2
	}
	if o.SyncEvery <= 0 {
		o.SyncEvery = time.Minute
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = 250 * time.Millisecond
	}
	if o.MaxBackoff < o.MinBackoff {
		o.MaxBackoff = max(30*time.Second, o.MinBackoff)
	}
	if o.DrainTimeout <= 0 {
		o.DrainTimeout = 30 * time.Second
	}
	if o.MaxCreativeSize <= 0 {
		o.MaxCreativeSize = 512 << 20
	}
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{Timeout: 15 * time.Second}
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return nil
}

func (r *runner) snapshot() Stats {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stats
}

func (r *runner) count(f func(*Stats)) {
	r.mu.Lock()
	f(&r.stats)
	r.mu.Unlock()
}

func (r *runner) fail(msg string, err error) {
	r.lastError.Store(oneLine(fmt.Sprintf("%s: %v", msg, err), 300))
	r.log.Warn(msg, "err", err)
}

// oneLine makes an error fit the heartbeat's last_error, a single-line field: control characters
// and line separators (a server's multi-line error body) become spaces, and it is cut to max runes.
func oneLine(s string, max int) string {
	out := make([]rune, 0, len(s))
	for _, c := range s {
		if len(out) == max {
			break
		}
		if unicode.IsControl(c) || c == '\u2028' || c == '\u2029' || c == utf8.RuneError {
			c = ' '
		}
		out = append(out, c)
	}
	return string(out)
}

// open loads or creates the device key, pairs when the folder holds no pairing, and opens the queue.
func (r *runner) open(ctx context.Context) error {
	if err := os.MkdirAll(r.opt.QueueDir, 0o700); err != nil {
		return err
	}
	priv, err := loadOrCreateKey(r.opt.QueueDir)
	if err != nil {
		return err
	}
	id, err := loadIdentity(r.opt.QueueDir)
	if err != nil {
		return err
	}
	switch {
	case id != nil && id.Server != r.opt.Server:
		return fmt.Errorf("%s holds the pairing of a screen of %s; use another --queue for %s", r.opt.QueueDir, id.Server, r.opt.Server)
	case id == nil && r.opt.PairingCode == "":
		return errors.New("this queue folder holds no pairing yet: --pairing-code is required")
	case id == nil:
		id, err = pair(ctx, r.opt.HTTPClient, r.opt.Server, r.opt.QueueDir, r.opt.PairingCode, AppVersion, priv)
		if err != nil {
			return err
		}
		r.stats.Paired = true
		r.log.Info("paired", "screen_id", id.ScreenID, "face_id", id.FaceID)
	}
	r.stats.ScreenID, r.stats.FaceID = id.ScreenID, id.FaceID
	server, _ := url.Parse(r.opt.Server)
	r.dev = &device{hc: r.opt.HTTPClient, server: server, screenID: id.ScreenID, priv: priv, appVersion: AppVersion, now: time.Now}
	r.q, err = openQueue(r.opt.QueueDir)
	return err
}

// run is the virtual clock and the play loop.
func (r *runner) run(ctx context.Context) error {
	wallStart := time.Now()
	// The virtual clock ends at the real end of the run, so that no play starts in the future:
	// playing D at speed N takes D/N of wall time, and starts D - D/N in the past (a backfill the
	// protocol accepts up to 14 days).
	wallRun := time.Duration(float64(r.opt.Duration) / r.opt.Speed)
	vstart := wallStart.Add(wallRun - r.opt.Duration).Truncate(time.Second).UTC()
	vend := vstart.Add(r.opt.Duration)
	atVirtual := func(v time.Time) time.Time {
		return wallStart.Add(time.Duration(float64(v.Sub(vstart)) / r.opt.Speed))
	}

	// A schedule is needed before the first slot. The one a previous run saved will do while the
	// server is unreachable (a player restarted during an outage keeps playing); without one, retry
	// until it comes, or until the run's time is up.
	r.loadCachedSchedule()
	backoff := r.opt.MinBackoff
	for {
		err := r.sync(ctx, vstart, vend, false)
		if err == nil && r.cur.Load() != nil {
			break
		}
		if err == nil {
			err = errors.New("no schedule yet")
		}
		var se *statusError
		if errors.As(err, &se) && !retryable(err) {
			return fmt.Errorf("schedule: %w", err)
		}
		if r.cur.Load() != nil {
			r.log.Warn("playing the saved schedule until the server answers", "err", err)
			break
		}
		if r.opt.Duration > 0 && time.Since(wallStart) > wallRun+r.opt.DrainTimeout {
			return fmt.Errorf("no schedule: %w", err)
		}
		if !sleep(ctx, backoff) {
			return ctx.Err()
		}
		backoff = min(2*backoff, r.opt.MaxBackoff)
	}
	if err := r.heartbeat(ctx); err != nil { // seen from the start, not a minute later
		r.fail("heartbeat", err)
	}

	post := newPoster(r)
	postDone := make(chan struct{})
	finish := make(chan struct{})
	go func() {
		defer close(postDone)
		post.loop(ctx, finish)
	}()
	post.kick() // batches left by an earlier run go first

	syncKick := make(chan time.Time, 1)
	syncCtx, stopSync := context.WithCancel(ctx)
	syncDone := make(chan struct{})
	go func() {
		defer close(syncDone)
		for {
			select {
			case <-syncCtx.Done():
				return
			case vt := <-syncKick:
				_ = r.sync(syncCtx, vt, vend, true)
			}
		}
	}()

	var batch []Play
	batchBytes := 0
	flush := func() {
		if len(batch) == 0 {
			return
		}
		if err := r.q.write(batch); err != nil {
			// The disk is the only copy: keep the plays in memory and try again at the next flush.
			r.fail("queue write", err)
			return
		}
		batch, batchBytes = nil, 0
		post.kick()
	}

	rr := 0
	vt := vstart
	nextSync := vstart.Add(r.opt.SyncEvery)
	var runErr error
	for r.opt.Duration == 0 || vt.Before(vend) {
		if !sleepUntil(ctx, atVirtual(vt)) {
			runErr = ctx.Err()
			break
		}
		if !vt.Before(nextSync) {
			flush()
			select { // coalesce: a syncer still busy (an outage) skips a beat
			case syncKick <- vt:
			default:
			}
			for !vt.Before(nextSync) {
				nextSync = nextSync.Add(r.opt.SyncEvery)
			}
		}
		st := r.cur.Load()
		if st.plan.isOpen(vt) {
			var ready []Item
			for _, it := range st.plan.itemsAt(vt) {
				if st.ready[it.CreativeID] {
					ready = append(ready, it)
				}
			}
			if len(ready) > 0 {
				it := ready[rr%len(ready)]
				rr++
				p := Play{Seq: r.q.take(), CampaignID: it.CampaignID, CreativeID: it.CreativeID, StartedAt: vt, DurationMS: st.plan.slot.Milliseconds()}
				raw, _ := json.Marshal(p)
				batch = append(batch, p)
				batchBytes += len(raw) + 1
				r.current.Store(it.CreativeID)
				r.count(func(s *Stats) {
					s.Played++
					if s.FirstSeq == 0 {
						s.FirstSeq = p.Seq
					}
					s.LastSeq = p.Seq
				})
			} else {
				r.current.Store("")
			}
		} else {
			r.current.Store("")
		}
		if len(batch) >= r.opt.BatchSize || batchBytes >= batchBytesTarget {
			flush()
		}
		vt = vt.Add(st.plan.slot)
	}
	flush()
	stopSync()
	<-syncDone
	if runErr == nil {
		_ = r.heartbeat(ctx) // the last state, so the screen page does not wait a minute
	}
	close(finish)
	<-postDone
	return runErr
}

// sync polls the schedule (If-None-Match), downloads what is new, and sends a heartbeat when asked.
func (r *runner) sync(ctx context.Context, vt, vend time.Time, beat bool) error {
	err := r.pollSchedule(ctx, vt, vend)
	if err != nil {
		r.fail("schedule", err)
	}
	if beat {
		if herr := r.heartbeat(ctx); herr != nil {
			r.fail("heartbeat", herr)
		}
	}
	return err
}

func (r *runner) pollSchedule(ctx context.Context, vt, vend time.Time) error {
	// From the Monday on or before the day before vt (UTC): that Monday is on or before the local
	// Monday of vt in any zone from UTC-12 to UTC+14, and the server's week arithmetic decides the
	// rest. Enough weeks to reach the end of the run, within the protocol's 1..8.
	d := vt.UTC().AddDate(0, 0, -1)
	monday := time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.UTC).AddDate(0, 0, -((int(d.Weekday()) + 6) % 7))
	weeks := r.opt.Weeks
	if r.opt.Duration > 0 {
		need := int(vend.Sub(monday)/(7*24*time.Hour)) + 1
		weeks = max(weeks, need)
	}
	weeks = min(max(weeks, 1), 8)
	from := monday.Format(time.DateOnly)
	etag := r.etag
	if from != r.from {
		etag = ""
	}
	s, tag, err := r.dev.fetchSchedule(ctx, from, weeks, etag)
	if err != nil {
		return err
	}
	if s == nil { // 304
		r.count(func(st *Stats) { st.ScheduleNotModified++ })
		return nil
	}
	r.count(func(st *Stats) { st.ScheduleFetches++ })
	p, err := newPlan(*s)
	if err != nil {
		return err
	}
	ready := map[string]bool{}
	tried := map[string]bool{} // a creative booked in several weeks is fetched once
	var expired bool
	for _, w := range s.Weeks {
		for _, it := range w.Items {
			if tried[it.CreativeID] {
				continue
			}
			tried[it.CreativeID] = true
			derr := r.dev.download(ctx, r.opt.QueueDir, it, r.opt.MaxCreativeSize)
			switch {
			case derr == nil:
				ready[it.CreativeID] = true
				if !r.verified[it.CreativeID] {
					r.verified[it.CreativeID] = true
					r.count(func(st *Stats) { st.CreativesVerified++ })
				}
			case errors.Is(derr, ErrChecksum):
				if !r.refused[it.CreativeID] {
					r.refused[it.CreativeID] = true
					r.count(func(st *Stats) { st.CreativesRefused++ })
				}
				r.fail("creative refused", derr)
			default:
				// A failed download (an outage, an expired URL) is tried again with fresh URLs at the
				// next poll: forget the tag so the server sends the whole schedule.
				expired = true
				r.fail("creative download", derr)
			}
		}
	}
	r.cur.Store(&state{plan: p, ready: ready})
	r.saveSchedule(s, from, tag)
	r.log.Info("schedule", "face_id", s.FaceID, "weeks", len(s.Weeks), "creatives_ready", len(ready), "slot_seconds", s.SlotSeconds)
	r.from = from
	r.etag = tag
	if expired {
		r.etag = ""
	}
	return nil
}

const scheduleFile = "schedule.json" // the last schedule, its `from` and ETag

type savedSchedule struct {
	From     string   `json:"from"`
	ETag     string   `json:"etag"`
	Schedule Schedule `json:"schedule"`
}

func (r *runner) saveSchedule(s *Schedule, from, etag string) {
	raw, err := json.Marshal(savedSchedule{From: from, ETag: etag, Schedule: *s})
	if err == nil {
		err = writeFileAtomic(filepath.Join(r.opt.QueueDir, scheduleFile), raw, 0o600)
	}
	if err != nil {
		r.fail("save schedule", err)
	}
}

// loadCachedSchedule plays from the saved schedule the creatives whose files are still on disk and
// still hash right; its ETag lets the first poll answer 304.
func (r *runner) loadCachedSchedule() {
	raw, err := os.ReadFile(filepath.Join(r.opt.QueueDir, scheduleFile)) // #nosec G304 -- a fixed name in the --queue folder
	if err != nil {
		return
	}
	var saved savedSchedule
	if json.Unmarshal(raw, &saved) != nil {
		return
	}
	p, err := newPlan(saved.Schedule)
	if err != nil {
		return
	}
	ready := map[string]bool{}
	for _, w := range saved.Schedule.Weeks {
		for _, it := range w.Items {
			sha := strings.ToLower(it.SHA256)
			if ok, err := fileHashes(filepath.Join(r.opt.QueueDir, "creatives", filepath.Base(sha)), sha); err == nil && ok {
				ready[it.CreativeID] = true
			}
		}
	}
	r.cur.Store(&state{plan: p, ready: ready})
	r.from, r.etag = saved.From, saved.ETag
}

func (r *runner) heartbeat(ctx context.Context) error {
	body, _ := json.Marshal(map[string]any{
		"app_version":         AppVersion,
		"free_disk_bytes":     freeDisk(r.opt.QueueDir),
		"current_creative_id": r.current.Load().(string),
		"last_error":          r.lastError.Load().(string),
	})
	if err := r.dev.call(ctx, http.MethodPost, "/api/device/heartbeat", body, nil); err != nil {
		return err
	}
	r.count(func(s *Stats) { s.Heartbeats++ })
	return nil
}

// poster posts the queued batches, oldest first, one at a time.
type poster struct {
	r       *runner
	kickCh  chan struct{}
	backoff time.Duration
}

func newPoster(r *runner) *poster {
	return &poster{r: r, kickCh: make(chan struct{}, 1), backoff: r.opt.MinBackoff}
}

func (p *poster) kick() {
	select {
	case p.kickCh <- struct{}{}:
	default:
	}
}

// loop posts on every kick and, after a failure, only when the backoff has passed (a kick during
// an outage does not hammer the server). Once finish is closed it keeps going until the queue is
// empty or DrainTimeout has passed.
func (p *poster) loop(ctx context.Context, finish <-chan struct{}) {
	var retry <-chan time.Time
	var deadline <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-deadline:
			return
		case <-finish:
			finish = nil
			deadline = time.After(p.r.opt.DrainTimeout)
		case <-p.kickCh:
			if retry != nil {
				continue // backing off: new batches wait for the retry, which posts them in order
			}
		case <-retry:
		}
		empty, failed := p.postAll(ctx)
		retry = nil
		if failed {
			retry = time.After(p.backoff)
			p.backoff = min(2*p.backoff, p.r.opt.MaxBackoff)
		} else {
			p.backoff = p.r.opt.MinBackoff
		}
		if finish == nil && empty {
			return
		}
	}
}

// postAll posts every queued batch in seq order. It stops at the first failure worth a retry, so
// batches reach the server in order; it reports whether the queue is now empty.
func (p *poster) postAll(ctx context.Context) (empty, failed bool) {
	files, err := p.r.q.batches()
	if err != nil {
		p.r.fail("queue list", err)
		return false, true
	}
	for _, f := range files {
		if ctx.Err() != nil {
			return false, false
		}
		if err := p.postOne(ctx, f); err != nil {
			p.r.count(func(s *Stats) { s.PostFailures++ })
			p.r.fail(fmt.Sprintf("post batch from seq %d", firstSeq(f)), err)
			return false, true
		}
	}
	return true, false
}

// postOne posts one batch file and deletes it after the 200. A batch the server calls malformed
// (see retryable) will never succeed, so it moves to rejected/ instead of blocking the queue
// forever.
func (p *poster) postOne(ctx context.Context, path string) error {
	plays, err := p.r.q.read(path)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		p.r.log.Error("unreadable batch set aside", "file", path, "err", err)
		return p.r.q.reject(path)
	}
	body, err := json.Marshal(map[string][]Play{"plays": plays})
	if err != nil {
		return err
	}
	var res PostResult
	err = p.r.dev.call(ctx, http.MethodPost, "/api/device/plays", body, &res)
	if err != nil && !retryable(err) {
		p.r.log.Error("the server refused a batch; set aside", "file", path, "err", err)
		p.r.count(func(s *Stats) { s.Rejected += len(plays) })
		return p.r.q.reject(path)
	}
	if err != nil {
		return err
	}
	sum := sha256.Sum256(body)
	if res.BatchHash != "" && !strings.EqualFold(res.BatchHash, hex.EncodeToString(sum[:])) {
		p.r.log.Warn("the server's batch_hash is not the hash of the body sent", "file", path)
	}
	if err := removeFile(path); err != nil {
		return err
	}
	p.r.log.Info("posted", "seq", fmt.Sprintf("%d..%d", plays[0].Seq, plays[len(plays)-1].Seq),
		"accepted", res.Accepted, "duplicates", res.Duplicates, "flagged", len(res.Flagged))
	p.r.count(func(s *Stats) {
		s.Batches++
		s.Posted += len(plays)
		s.Accepted += res.Accepted
		s.Duplicates += res.Duplicates
		s.Flagged += len(res.Flagged)
	})
	return nil
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

func sleepUntil(ctx context.Context, at time.Time) bool {
	d := time.Until(at)
	if d <= 0 {
		return ctx.Err() == nil
	}
	return sleep(ctx, d)
}

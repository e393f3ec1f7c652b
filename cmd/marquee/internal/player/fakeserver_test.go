package player

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeServer is a test double of the player's peer: a small HTTP server that implements the
// device side of docs/screens.md (PROTOCOL v1) with the same checks the real one makes on what the
// player sends: the Ed25519 signature over METHOD, path with query, timestamp and body hash; the
// ±300 s timestamp bound; (screen, seq) idempotence; If-None-Match. It can drop connections or
// answer 503 to simulate an outage. The player is the unit under test; the real server's own
// tests, and the end-to-end test the lead adds, cover the real side.
type fakeServer struct {
	t   *testing.T
	srv *httptest.Server

	// mode: how the server behaves right now.
	mode atomic.Int32
	// rejectSeq: a batch holding this seq answers 422 (a batch the server finds malformed).
	rejectSeq atomic.Int64

	mu          sync.Mutex
	code        string
	pub         ed25519.PublicKey
	screenID    string
	pairs       int
	sched       Schedule
	files       map[string][]byte
	plays       map[int64]Play // stored plays by seq
	duplicates  int
	conflicts   []string // a seq sent again with other content: the player broke idempotence
	batches     int
	signedOK    int
	badSigs     int
	notModified int
	heartbeats  int
}

const (
	modeUp           = iota
	modeDrop         // every connection is closed without an answer (the server is unreachable)
	mode503          // every device call answers 503
	modeStoreAndDrop // plays are stored, then the connection drops before the answer
	modePlays503     // only POST /plays answers 503; the rest works
)

func newFakeServer(t *testing.T, items map[string][]byte, badSHA map[string]bool) *fakeServer {
	t.Helper()
	f := &fakeServer{t: t, code: "ABCD-EFGH-JKMN", screenID: "0190c1d2-0000-7000-8000-000000000001",
		files: map[string][]byte{}, plays: map[int64]Play{}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)

	f.sched = Schedule{ScreenID: f.screenID, FaceID: "face-1", Timezone: "America/New_York", SlotSeconds: 8, LoopSeconds: 64}
	f.sched.Hours.Open, f.sched.Hours.Close = "00:00", "24:00"
	var its []Item
	for _, id := range sortedKeys(items) {
		body := items[id]
		sum := sha256.Sum256(body)
		sha := hex.EncodeToString(sum[:])
		if badSHA[id] {
			sum2 := sha256.Sum256(append([]byte("tampered"), body...))
			sha = hex.EncodeToString(sum2[:])
		}
		f.files[id] = body
		its = append(its, Item{CampaignID: "camp-" + id, CreativeID: id, SHA256: sha,
			URL: f.srv.URL + "/files/" + id, ExpiresAt: time.Now().Add(time.Hour).UTC().Format(time.RFC3339)})
	}
	// Weeks from three weeks back to two ahead: the player's virtual clock starts in the past.
	ny, _ := time.LoadLocation("America/New_York")
	now := time.Now().In(ny)
	monday := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, ny).AddDate(0, 0, -((int(now.Weekday())+6)%7)-21)
	for i := range 6 {
		f.sched.Weeks = append(f.sched.Weeks, Week{WeekStart: monday.AddDate(0, 0, 7*i).Format(time.DateOnly), Items: its})
	}
	return f
}

func sortedKeys(m map[string][]byte) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	for i := range ks {
		for j := i + 1; j < len(ks); j++ {
			if ks[j] < ks[i] {
				ks[i], ks[j] = ks[j], ks[i]
			}
		}
	}
	return ks
}

func (f *fakeServer) drop(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		f.t.Error("the test server cannot hijack")
		return
	}
	conn, _, err := hj.Hijack()
	if err == nil {
		_ = conn.Close()
	}
}

func (f *fakeServer) serve(w http.ResponseWriter, r *http.Request) {
	mode := f.mode.Load()
	switch {
	case mode == modeDrop:
		f.drop(w)
		return
	case mode == mode503:
		http.Error(w, `{"success":false,"message":"Service unavailable."}`, http.StatusServiceUnavailable)
		return
	case mode == modePlays503 && r.URL.Path == "/api/device/plays":
		http.Error(w, `{"success":false,"message":"Service unavailable."}`, http.StatusServiceUnavailable)
		return
	}
	if len(r.URL.Path) > 7 && r.URL.Path[:7] == "/files/" {
		f.mu.Lock()
		body, ok := f.files[r.URL.Path[7:]]
		f.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write(body)
		return
	}
	if r.URL.Path == "/api/device/pair" && r.Method == http.MethodPost {
		f.pair(w, r)
		return
	}
	body, ok := f.verify(w, r)
	if !ok {
		return
	}
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/api/device/schedule":
		f.schedule(w, r)
	case r.Method == http.MethodPost && r.URL.Path == "/api/device/plays":
		f.postPlays(w, body, mode == modeStoreAndDrop)
	case r.Method == http.MethodPost && r.URL.Path == "/api/device/heartbeat":
		var hb map[string]any
		if err := json.Unmarshal(body, &hb); err != nil || hb["app_version"] != AppVersion {
			f.t.Errorf("heartbeat body %s", body)
		}
		f.mu.Lock()
		f.heartbeats++
		f.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	default:
		http.NotFound(w, r)
	}
}

func (f *fakeServer) pair(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Code       string `json:"code"`
		PublicKey  string `json:"public_key"`
		AppVersion string `json:"app_version"`
	}
	_ = json.NewDecoder(io.LimitReader(r.Body, 4096)).Decode(&req)
	key, err := base64.StdEncoding.DecodeString(req.PublicKey)
	f.mu.Lock()
	defer f.mu.Unlock()
	if req.Code != f.code || f.pub != nil || err != nil || len(key) != ed25519.PublicKeySize {
		http.Error(w, `{"success":false,"message":"Invalid pairing code."}`, http.StatusUnauthorized)
		return
	}
	f.pub = ed25519.PublicKey(key)
	f.pairs++
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	_, _ = fmt.Fprintf(w, `{"screen_id":%q,"face_id":"face-1","protocol":1}`, f.screenID)
}

// verify checks a signed request the way PROTOCOL "Signed requests" says; 401 when it fails.
func (f *fakeServer) verify(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBatchBytes))
	ts, terr := strconv.ParseInt(r.Header.Get(HeaderTimestamp), 10, 64)
	f.mu.Lock()
	defer f.mu.Unlock()
	skew := time.Since(time.Unix(ts, 0))
	if err != nil || terr != nil || f.pub == nil || r.Header.Get(HeaderScreenID) != f.screenID ||
		skew > 300*time.Second || skew < -300*time.Second ||
		!Verify(f.pub, r.Method, r.URL.RequestURI(), ts, body, r.Header.Get(HeaderSignature)) {
		f.badSigs++
		http.Error(w, `{"success":false,"message":"Unauthorized."}`, http.StatusUnauthorized)
		return nil, false
	}
	f.signedOK++
	return body, true
}

func (f *fakeServer) schedule(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Get("from") == "" || r.URL.Query().Get("weeks") == "" {
		f.t.Errorf("schedule query %q", r.URL.RawQuery)
	}
	f.mu.Lock()
	raw, _ := json.Marshal(f.sched)
	f.mu.Unlock()
	sum := sha256.Sum256(raw)
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	w.Header().Set("ETag", etag)
	if r.Header.Get("If-None-Match") == etag {
		f.mu.Lock()
		f.notModified++
		f.mu.Unlock()
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(raw)
}

func (f *fakeServer) postPlays(w http.ResponseWriter, body []byte, dropAfter bool) {
	var req struct {
		Plays []Play `json:"plays"`
	}
	if err := json.Unmarshal(body, &req); err != nil || len(req.Plays) == 0 || len(req.Plays) > MaxBatchPlays {
		http.Error(w, `{"success":false,"message":"Invalid batch."}`, http.StatusBadRequest)
		return
	}
	for _, p := range req.Plays {
		if p.Seq == f.rejectSeq.Load() {
			http.Error(w, `{"success":false,"message":"Invalid play."}`, http.StatusUnprocessableEntity)
			return
		}
	}
	f.mu.Lock()
	accepted, dups := 0, 0
	for _, p := range req.Plays {
		if old, ok := f.plays[p.Seq]; ok {
			dups++
			if !old.StartedAt.Equal(p.StartedAt) || old.CreativeID != p.CreativeID || old.CampaignID != p.CampaignID {
				f.conflicts = append(f.conflicts, fmt.Sprintf("seq %d: %+v then %+v", p.Seq, old, p))
			}
			continue
		}
		if p.StartedAt.After(time.Now().Add(300 * time.Second)) {
			f.t.Errorf("seq %d starts in the future: %s", p.Seq, p.StartedAt)
		}
		f.plays[p.Seq] = p
		accepted++
	}
	f.duplicates += dups
	f.batches++
	f.mu.Unlock()
	if dropAfter {
		f.drop(w)
		return
	}
	sum := sha256.Sum256(body)
	w.Header().Set("Content-Type", "application/json")
	_, _ = fmt.Fprintf(w, `{"accepted":%d,"duplicates":%d,"flagged":[],"batch_hash":%q}`, accepted, dups, hex.EncodeToString(sum[:]))
}

// stored returns a copy of the stored plays and the counters, under the lock.
func (f *fakeServer) stored() (map[int64]Play, int, []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make(map[int64]Play, len(f.plays))
	for k, v := range f.plays {
		out[k] = v
	}
	return out, f.duplicates, append([]string(nil), f.conflicts...)
}

package player

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Play is one play as the protocol posts it (PROTOCOL "Plays").
type Play struct {
	Seq        int64     `json:"seq"`
	CampaignID string    `json:"campaign_id"`
	CreativeID string    `json:"creative_id"`
	StartedAt  time.Time `json:"started_at"`
	DurationMS int64     `json:"duration_ms"`
}

const (
	stateFile   = "state.json" // {"next_seq": n}: the sequence survives a restart
	batchDir    = "batches"    // batch-<first seq, 20 digits>.jsonl: name order is seq order
	rejectedDir = "rejected"   // batches the server refused as malformed: kept for a person
)

// queue is the on-disk queue of played batches. A batch is written (fsync, atomic rename) before
// it is posted and deleted only after the server's 200, so neither a server outage nor a player
// crash after the write loses a play.
type queue struct {
	dir string

	mu      sync.Mutex
	nextSeq int64 // the seq the next play gets; persisted up to the last written batch
}

func openQueue(dir string) (*queue, error) {
	for _, d := range []string{dir, filepath.Join(dir, batchDir), filepath.Join(dir, rejectedDir)} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	q := &queue{dir: dir, nextSeq: 1}
	raw, err := os.ReadFile(filepath.Join(dir, stateFile)) // #nosec G304 -- a fixed name in the --queue folder
	switch {
	case err == nil:
		var st struct {
			NextSeq int64 `json:"next_seq"`
		}
		if err := json.Unmarshal(raw, &st); err != nil {
			return nil, fmt.Errorf("%s: %w", stateFile, err)
		}
		q.nextSeq = max(st.NextSeq, 1)
	case !os.IsNotExist(err):
		return nil, err
	}
	// The state is written before each batch, so it is never behind a batch file; this guards a
	// state file restored from an older backup, where reusing a seq would make new plays look like
	// duplicates of old ones.
	files, err := q.batches()
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		plays, err := q.read(f)
		if err != nil {
			continue // a corrupt file is reported when it is posted
		}
		for _, p := range plays {
			q.nextSeq = max(q.nextSeq, p.Seq+1)
		}
	}
	return q, nil
}

// take hands out the next sequence number (in memory; write persists it).
func (q *queue) take() int64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	s := q.nextSeq
	q.nextSeq++
	return s
}

// write persists the sequence counter, then the batch. In that order a crash between the two
// leaves a gap in the seqs (allowed: seqs only have to increase), never a reused seq.
func (q *queue) write(plays []Play) error {
	if len(plays) == 0 {
		return nil
	}
	q.mu.Lock()
	next := q.nextSeq
	q.mu.Unlock()
	state, _ := json.Marshal(map[string]int64{"next_seq": next})
	if err := writeFileAtomic(filepath.Join(q.dir, stateFile), state, 0o600); err != nil {
		return err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf) // one play per line
	for _, p := range plays {
		if err := enc.Encode(p); err != nil {
			return err
		}
	}
	name := fmt.Sprintf("batch-%020d.jsonl", plays[0].Seq)
	return writeFileAtomic(filepath.Join(q.dir, batchDir, name), buf.Bytes(), 0o600)
}

// batches lists the queued batch files, oldest (lowest seq) first.
func (q *queue) batches() ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(q.dir, batchDir))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasPrefix(e.Name(), "batch-") || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		out = append(out, filepath.Join(q.dir, batchDir, e.Name()))
	}
	sort.Strings(out)
	return out, nil
}

// read parses a batch file.
func (q *queue) read(path string) ([]Play, error) {
	raw, err := os.ReadFile(path) // #nosec G304 -- a batch file listed in the --queue folder
	if err != nil {
		return nil, err
	}
	var plays []Play
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var p Play
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", filepath.Base(path), line, err)
		}
		plays = append(plays, p)
	}
	return plays, sc.Err()
}

// reject moves a batch the server will never take out of the way, so it does not block the
// batches behind it, and keeps it for a person to look at.
func (q *queue) reject(path string) error {
	dst := filepath.Join(q.dir, rejectedDir, filepath.Base(path))
	if err := os.Rename(path, dst); err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
}

// pending counts the plays still queued on disk.
func (q *queue) pending() (int, error) {
	files, err := q.batches()
	if err != nil {
		return 0, err
	}
	n := 0
	for _, f := range files {
		plays, err := q.read(f)
		if err != nil {
			return n, err
		}
		n += len(plays)
	}
	return n, nil
}

// firstSeq is the seq in a batch file's name (for messages).
func firstSeq(path string) int64 {
	s := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(path), "batch-"), ".jsonl")
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}

package player

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The sequence survives a restart, and never goes back below a queued batch: a state file older
// than the batches (restored from a backup) must not hand out a seq the server already holds.
func TestQueueSequenceSurvivesAndNeverGoesBack(t *testing.T) {
	dir := t.TempDir()
	q, err := openQueue(dir)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 26, 14, 0, 8, 0, time.UTC)
	var batch []Play
	for range 3 {
		batch = append(batch, Play{Seq: q.take(), CampaignID: "c", CreativeID: "k", StartedAt: at, DurationMS: 8000})
	}
	if err := q.write(batch); err != nil {
		t.Fatal(err)
	}
	q2, err := openQueue(dir)
	if err != nil || q2.take() != 4 {
		t.Fatalf("after a restart the next seq is not 4 (%v)", err)
	}

	// An old state file, and a half-written temporary file a crash left behind.
	if err := os.WriteFile(filepath.Join(dir, stateFile), []byte(`{"next_seq":2}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, batchDir, ".batch-00000000000000000009.jsonl.tmp-1"), []byte(`{"seq":9`), 0o600); err != nil {
		t.Fatal(err)
	}
	q3, err := openQueue(dir)
	if err != nil || q3.take() != 4 {
		t.Fatalf("an older state file moved the seq back (%v)", err)
	}
	files, _ := q3.batches()
	if len(files) != 1 || firstSeq(files[0]) != 1 {
		t.Errorf("batches %v: the temporary file is not a batch", files)
	}
	plays, err := q3.read(files[0])
	if err != nil || len(plays) != 3 || !plays[2].StartedAt.Equal(at) || plays[2].Seq != 3 {
		t.Errorf("read back %+v %v", plays, err)
	}
	if n, _ := q3.pending(); n != 3 {
		t.Errorf("pending %d", n)
	}
}

package campaigns

import (
	"context"
	"sync"
	"time"

	"marquee/platform/apperr"
	"marquee/platform/db"
)

// The dashboard counts (A §3) are read on every dashboard visit and change only when a campaign
// is written, so they are answered from memory while no campaign write has happened since
// (docs/performance.md): any write on the campaigns table, on this process or (on
// PostgreSQL) on another replica, ends every kept answer (platform/db.Watch).

// countTTL bounds how long a kept answer lives even when no change arrives.
const countTTL = 10 * time.Second

// maxCountsKept bounds the memory: past it the cache starts over.
const maxCountsKept = 10000

type keptCount struct {
	count Count
	gen   uint64
	at    time.Time
}

type countCache struct {
	watch *db.Watch
	mu    sync.RWMutex
	kept  map[string]keptCount // by company id; "" is the admins' count of every company
}

// newCountCache keeps counts until watch (the campaigns table's) sees a write.
func newCountCache(watch *db.Watch) *countCache {
	return &countCache{watch: watch, kept: map[string]keptCount{}}
}

// countCampaigns answers the dashboard counts (A §3): a stored 'paid' counts as pending; the
// total counts every listed campaign (canceled ones too).
func (s *service) countCampaigns(ctx context.Context, companyID string) (*Count, error) {
	cc := s.counts
	cc.mu.RLock()
	k, ok := cc.kept[companyID]
	cc.mu.RUnlock()
	if ok && cc.watch.Fresh(k.gen) && time.Since(k.at) < countTTL {
		out := k.count
		return &out, nil
	}
	gen, cacheable := cc.watch.Begin()
	at := time.Now()
	byStatus, err := s.store.StatusCounts(ctx, companyID)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	out := &Count{Pending: byStatus[StatusPending] + byStatus[StatusPaid], Active: byStatus[StatusActive],
		Completed: byStatus[StatusCompleted], Paused: byStatus[StatusPaused]}
	for _, n := range byStatus {
		out.Total += n
	}
	// Kept only when read outside a transaction (one could hold its own uncommitted writes) and
	// nothing changed while it was read.
	if cacheable && !db.InTx(ctx) {
		cc.mu.Lock()
		if cc.watch.Fresh(gen) {
			if len(cc.kept) >= maxCountsKept {
				clear(cc.kept)
			}
			cc.kept[companyID] = keptCount{count: *out, gen: gen, at: at}
		}
		cc.mu.Unlock()
	}
	return out, nil
}

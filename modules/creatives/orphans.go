package creatives

import (
	"context"
	"io"
	"strings"
	"time"

	"marquee/platform/apperr"
	"marquee/platform/storage"
)

// JobSweepOrphans is the job that deletes, once a day, the objects no file row names
// (sweepOrphanObjects).
const JobSweepOrphans = "creatives.orphan-sweep"

// SweepEvery is how often the orphan sweep runs. Its job ticks hourly and sweeps when the last
// sweep is this old (sweepOrphansDaily).
const SweepEvery = 24 * time.Hour

// sweepMarkerKey holds the time of the last finished sweep, outside the swept folders.
const sweepMarkerKey = "maintenance/creatives-orphan-sweep"

// OrphanGrace is how old an unnamed object must be before the sweep deletes it. An upload stores
// its objects before it inserts their row (uploader.save), so a younger object may belong to an
// upload still in progress; no request lives a day.
const OrphanGrace = 24 * time.Hour

// orphanBatch is how many old objects the sweep checks with one query.
var orphanBatch = 500

// storedKinds are the folders the uploads store under: "<kind>/<company>/<id><ext>" (uploader.save).
// Nothing else writes there; generated reports live under "reports/", which is not swept.
var storedKinds = []string{KindCreative, KindCreativeLibrary, KindTemp, KindContent, KindCreativeImage, KindReport, KindProof}

// sweepOrphanObjects deletes the stored objects, older than OrphanGrace, that no file row names
// as its original, thumbnail or web copy, and answers how many it deleted. They are what an upload
// cut short between storing its objects and inserting its row leaves (a process killed, which runs no deferred clean-up),
// and what a release leaves when deleting its objects fails (deleteObjects). Such objects are never
// served, since every read goes through a row, but they take space and a company's data would
// outlive the company's files. A row inserted meanwhile is not at risk: its objects are new.
func (s *service) sweepOrphanObjects(ctx context.Context) (int, error) {
	cutoff := s.deps.Clock.Now().Add(-OrphanGrace)
	removed := 0
	var batch []storage.Object
	// sweep deletes the objects of the batch that no row names: one query for the batch.
	sweep := func() error {
		if len(batch) == 0 {
			return nil
		}
		keys := make([]string, len(batch))
		for i, o := range batch {
			keys[i] = o.Key
		}
		named, err := s.store.NamedKeys(ctx, keys)
		if err != nil {
			return apperr.Internal(err)
		}
		for _, o := range batch {
			if named[o.Key] {
				continue
			}
			if err := s.deps.Storage.Delete(ctx, o.Key); err != nil {
				return err
			}
			removed++
			s.deps.Log.InfoContext(ctx, "creatives: deleted an object no file names", "key", o.Key, "size", o.Size, "modified", o.ModTime)
		}
		batch = batch[:0]
		return nil
	}
	for _, kind := range storedKinds {
		err := s.deps.Storage.List(ctx, kind+"/", func(o storage.Object) error {
			if !o.ModTime.Before(cutoff) {
				return nil
			}
			if batch = append(batch, o); len(batch) == orphanBatch {
				return sweep()
			}
			return nil
		})
		if err == nil {
			err = sweep()
		}
		if err != nil {
			return removed, err
		}
	}
	return removed, nil
}

// sweepOrphansDaily is the job's run: it sweeps when the last sweep finished SweepEvery ago, or
// never did. The time is kept in an object beside the ones swept, not in the process: a job that
// ticked every 24 hours would start its wait again at each restart, and would never run on a
// service deployed more often than daily.
func (s *service) sweepOrphansDaily(ctx context.Context) error {
	now := s.deps.Clock.Now()
	last, err := s.lastSweep(ctx)
	if err != nil {
		return err
	}
	if now.Sub(last) < SweepEvery {
		return nil
	}
	if _, err := s.sweepOrphanObjects(ctx); err != nil {
		return err
	}
	stamp := now.Format(time.RFC3339Nano)
	return s.deps.Storage.Put(ctx, sweepMarkerKey, strings.NewReader(stamp), int64(len(stamp)), "text/plain")
}

// lastSweep is the time of the last finished sweep; the zero time when there was none (or its
// marker cannot be read as a time, which a new sweep rewrites).
func (s *service) lastSweep(ctx context.Context) (time.Time, error) {
	rc, _, err := s.deps.Storage.Get(ctx, sweepMarkerKey)
	if apperr.CodeOf(err) == apperr.ENOTFOUND {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, 64))
	if err != nil {
		return time.Time{}, apperr.Internal(err)
	}
	last, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(string(b)))
	if err != nil {
		return time.Time{}, nil
	}
	return last, nil
}

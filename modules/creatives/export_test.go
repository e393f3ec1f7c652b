package creatives

import "context"

// SetOrphanBatch makes the orphan sweep check n objects a query, so that a test with a few objects
// also goes through a full batch.
func SetOrphanBatch(n int) (restore func()) {
	old := orphanBatch
	orphanBatch = n
	return func() { orphanBatch = old }
}

// CleanTempFiles runs the temporary files' clean-up now, as its hourly job does, and answers how
// many files it removed.
func (m *Module) CleanTempFiles(ctx context.Context) (int, error) { return m.svc.cleanTempFiles(ctx) }

// SweepOrphanObjects runs the orphan sweep now, whenever the last one ran, and answers how many
// objects it deleted.
func (m *Module) SweepOrphanObjects(ctx context.Context) (int, error) {
	return m.svc.sweepOrphanObjects(ctx)
}

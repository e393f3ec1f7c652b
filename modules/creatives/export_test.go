package creatives

// SetOrphanBatch makes the orphan sweep check n objects a query, so that a test with a few objects
// also goes through a full batch.
func SetOrphanBatch(n int) (restore func()) {
	old := orphanBatch
	orphanBatch = n
	return func() { orphanBatch = old }
}

package creatives

import (
	"context"
	"image"
	"time"

	"marquee/modules/creatives/internal/preflight"
)

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

// Analyse runs the pre-flight analysis of an uploaded image with the module's OCR.
func (m *Module) Analyse(ctx context.Context, img image.Image) preflight.Input {
	run := m.svc.uploads.ocr.startOCR(ctx, m.deps.TempDir, img.Bounds().Size())
	defer run.close()
	return analyse(img, run)
}

// SetOCR replaces the module's text recognition (binary "" = not installed) until restore.
func (m *Module) SetOCR(binary string, timeout time.Duration) (restore func()) {
	o := m.svc.uploads.ocr
	oldBin, oldTimeout := o.Binary, o.Timeout
	o.Binary, o.Timeout = binary, timeout
	return func() { o.Binary, o.Timeout = oldBin, oldTimeout }
}

// Package imagecheck holds the checks every uploaded image goes through, whichever module takes
// it (docs/uploads.md "Images", "Quotas and memory"): the header read first, a pixel flood refused
// before anything large is allocated, the memory of the decode estimated from the header
// (DecodeCost) and taken from one budget shared by the whole process (Budget), then the decode.
// The creatives module's uploads and the admins' face photos (modules/locations) both use it, so
// the limits and messages are the same and the decodes of both count against IMAGE_DECODE_MEMORY
// together.
package imagecheck

import (
	"context"
	"image"
	_ "image/gif" // decoders registered for image.DecodeConfig and image.Decode
	_ "image/jpeg"
	_ "image/png"
	"io"

	_ "golang.org/x/image/bmp"
	"golang.org/x/image/tiff"
	_ "golang.org/x/image/webp"
	"golang.org/x/sync/semaphore"

	"marquee/platform/apperr"
)

const (
	// MaxPixels refuses a pixel flood (a small file announcing huge dimensions) before it is
	// decoded: 25 megapixels (a 6000x4000 photo) is far above any billboard creative or face
	// photo, and bounds the memory of a decode (about 1.5 bytes a pixel for JPEG, 4 for PNG or
	// TIFF).
	MaxPixels = 25_000_000
	// MaxSide refuses absurd single dimensions even when the product fits.
	MaxSide = 20_000
)

// The answers to a bad image (docs/uploads.md).
const (
	MsgCorrupt  = "The image could not be read. Please check the file and try again."
	MsgTooBig   = "The image is too large: at most 25 megapixels and 20000 pixels a side."
	MsgTooHeavy = "The image is too large to process. Please save it with fewer pixels, or 8 bits per colour."
)

// Header reads the header of an image only (r at its start), and refuses a pixel flood before
// anything big is allocated: 422 MsgCorrupt for an unreadable header, MsgTooBig past MaxPixels or
// MaxSide.
func Header(r io.Reader, contentType string) (image.Config, error) {
	var cfg image.Config
	var err error
	if contentType == "image/tiff" {
		cfg, err = tiff.DecodeConfig(r) // see Decode
	} else {
		cfg, _, err = image.DecodeConfig(r)
	}
	if err != nil {
		return cfg, apperr.New(apperr.EUNSUPPORTED, MsgCorrupt)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return cfg, apperr.New(apperr.EUNSUPPORTED, MsgCorrupt)
	}
	if cfg.Width > MaxSide || cfg.Height > MaxSide || int64(cfg.Width)*int64(cfg.Height) > MaxPixels {
		return cfg, apperr.New(apperr.EUNSUPPORTED, MsgTooBig)
	}
	return cfg, nil
}

// Decode decodes a whole image whose header Header accepted (r at its start). A corrupt or
// truncated body answers MsgCorrupt. The caller must hold its DecodeCost of the Budget.
//
// A TIFF is decoded from the reader itself when it is an io.ReaderAt (a file): the TIFF decoder
// reads at offsets, and given the buffered reader that image.Decode sniffs through, it would first
// copy the whole file into memory, 10 MB more for a 10 MB creative.
func Decode(r io.Reader, contentType string) (image.Image, error) {
	var img image.Image
	var err error
	if contentType == "image/tiff" {
		img, err = tiff.Decode(r)
	} else {
		img, _, err = image.Decode(r)
	}
	if err != nil {
		return nil, apperr.New(apperr.EUNSUPPORTED, MsgCorrupt)
	}
	return img, nil
}

// Budget is the memory of the image decodes in flight, in bytes (IMAGE_DECODE_MEMORY): a decode
// takes its DecodeCost before it starts and waits while the others hold too much. One Budget
// serves the whole process (server.Kernel.Decodes), so two modules' decodes cannot each take the
// whole of it.
type Budget struct {
	sem *semaphore.Weighted
}

// NewBudget makes a budget of total bytes.
func NewBudget(total int64) *Budget { return &Budget{sem: semaphore.NewWeighted(total)} }

// Acquire takes n bytes, waiting for them; it fails only when ctx ends (the error is ctx's).
func (b *Budget) Acquire(ctx context.Context, n int64) error { return b.sem.Acquire(ctx, n) }

// Release gives back n bytes taken by Acquire.
func (b *Budget) Release(n int64) { b.sem.Release(n) }

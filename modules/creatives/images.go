package creatives

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/draw"
	_ "image/gif" // decoders registered for image.DecodeConfig and image.Decode
	"image/jpeg"
	_ "image/png"
	"io"
	"os"

	_ "golang.org/x/image/bmp"
	xdraw "golang.org/x/image/draw"
	"golang.org/x/image/tiff"
	_ "golang.org/x/image/webp"

	"marquee/platform/apperr"
)

// decodableImages are the image types we decode for a thumbnail; other image types (svg, heic,
// ...) are refused where an image is required.
var decodableImages = map[string]bool{
	"image/jpeg": true, "image/png": true, "image/gif": true, "image/tiff": true,
	"image/webp": true, "image/bmp": true,
}

// imageInfo is what processing an image gives.
type imageInfo struct {
	Width, Height int
	Thumb         []byte // a JPEG of at most ThumbMaxSide a side
}

// imageConfig reads the header of an image only, and refuses a pixel flood before anything big is
// allocated.
func imageConfig(f *os.File, contentType string) (image.Config, error) {
	var cfg image.Config
	var err error
	if contentType == "image/tiff" {
		cfg, err = tiff.DecodeConfig(f) // see decodeImage
	} else {
		cfg, _, err = image.DecodeConfig(f)
	}
	if err != nil {
		return cfg, apperr.New(apperr.EUNSUPPORTED, MsgCorruptImage)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return cfg, apperr.New(apperr.EUNSUPPORTED, MsgCorruptImage)
	}
	if cfg.Width > MaxImageSide || cfg.Height > MaxImageSide || int64(cfg.Width)*int64(cfg.Height) > MaxImagePixels {
		return cfg, apperr.New(apperr.EUNSUPPORTED, MsgImageTooBig)
	}
	return cfg, nil
}

// decodeImage decodes a whole image whose header imageConfig accepted. A corrupt or truncated body
// answers MsgCorruptImage. The caller must hold its decodeCost of the decode budget.
//
// A TIFF is decoded from the file itself: the TIFF decoder reads at offsets (io.ReaderAt), and given
// the buffered reader that image.Decode sniffs through, it would first copy the whole file into
// memory, 10 MB more for a 10 MB creative.
func decodeImage(f *os.File, contentType string) (image.Image, error) {
	var img image.Image
	var err error
	if contentType == "image/tiff" {
		img, err = tiff.Decode(f)
	} else {
		img, _, err = image.Decode(f)
	}
	if err != nil {
		return nil, apperr.New(apperr.EUNSUPPORTED, MsgCorruptImage)
	}
	return img, nil
}

// thumbSize fits w x h within ThumbMaxSide, keeping the ratio.
func thumbSize(w, h int) (int, int) {
	if w <= ThumbMaxSide && h <= ThumbMaxSide {
		return w, h
	}
	if w >= h {
		return ThumbMaxSide, max(1, h*ThumbMaxSide/w)
	}
	return max(1, w*ThumbMaxSide/h), ThumbMaxSide
}

// thumbnail scales img straight into a small canvas (no full-size copy in another colour model),
// on white so transparent images stay readable, and encodes it as a JPEG.
func thumbnail(img image.Image) ([]byte, error) {
	b := img.Bounds()
	tw, th := thumbSize(b.Dx(), b.Dy())
	dst := image.NewRGBA(image.Rect(0, 0, tw, th))
	draw.Draw(dst, dst.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	xdraw.ApproxBiLinear.Scale(dst, dst.Bounds(), img, b, draw.Over, nil)
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, dst, &jpeg.Options{Quality: 82}); err != nil {
		return nil, apperr.Internal(err)
	}
	return buf.Bytes(), nil
}

// webCopy writes img as a JPEG for browsers that cannot show it (TIFF creatives, A §5): the
// encoder streams to w, so only the decoded image is in memory.
func webCopy(w io.Writer, img image.Image) error {
	if err := jpeg.Encode(w, img, &jpeg.Options{Quality: 90}); err != nil {
		return apperr.Internal(errors.Join(errors.New("creatives: web copy"), err))
	}
	return nil
}

package creatives

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"io"

	xdraw "golang.org/x/image/draw"

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

package creatives_test

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Sample creatives for the pre-flight, drawn here with the Go Bold face so the tests need no
// binary fixtures: real pixels and real glyphs that Tesseract reads.

// sampleText is one line of text on a sample.
type sampleText struct {
	text   string
	x, y   int // the baseline's start
	size   float64
	colour color.RGBA
}

// sampleRect is a filled rectangle on a sample.
type sampleRect struct {
	r      image.Rectangle
	colour color.RGBA
}

var boldFont = func() *opentype.Font {
	f, err := opentype.Parse(gobold.TTF)
	if err != nil {
		panic(err)
	}
	return f
}()

func hexRGBA(v uint32) color.RGBA { return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 255} }

// drawSample draws a w x h creative: a background, rectangles, then texts.
func drawSample(t testing.TB, w, h int, bg color.RGBA, rects []sampleRect, texts []sampleText) *image.RGBA {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), &image.Uniform{bg}, image.Point{}, draw.Src)
	for _, r := range rects {
		draw.Draw(img, r.r, &image.Uniform{r.colour}, image.Point{}, draw.Src)
	}
	for _, tx := range texts {
		face, err := opentype.NewFace(boldFont, &opentype.FaceOptions{Size: tx.size, DPI: 72, Hinting: font.HintingFull})
		if err != nil {
			t.Fatal(err)
		}
		d := font.Drawer{Dst: img, Src: &image.Uniform{tx.colour}, Face: face, Dot: fixed.P(tx.x, tx.y)}
		d.DrawString(tx.text)
		_ = face.Close()
	}
	return img
}

func encodeJPEG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 92}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encodePNG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

var (
	navy  = hexRGBA(0x0b3d91)
	white = hexRGBA(0xffffff)
	black = hexRGBA(0x000000)
)

// The five samples of issue 29, at the builder's 1400 x 400.
func sampleClean(t testing.TB) []byte {
	return encodeJPEG(t, drawSample(t, 1400, 400, navy, nil, []sampleText{{"FRESH COFFEE", 160, 250, 150, white}}))
}

func sampleCluttered(t testing.TB) []byte {
	var rects []sampleRect
	colours := []uint32{0xe74c3c, 0x2ecc71, 0xf1c40f, 0x9b59b6, 0xe67e22, 0x1abc9c, 0xecf0f1, 0xd35400}
	for i, c := range colours {
		x := 70 + i*165
		rects = append(rects, sampleRect{image.Rect(x, 40, x+105, 145), hexRGBA(c)})
	}
	return encodeJPEG(t, drawSample(t, 1400, 400, navy, rects, []sampleText{{"SALE", 560, 330, 100, white}}))
}

func sampleLowContrast(t testing.TB) []byte {
	return encodeJPEG(t, drawSample(t, 1400, 400, hexRGBA(0x9a9a9a), nil, []sampleText{{"FRESH COFFEE", 160, 250, 150, hexRGBA(0x5c5c5c)}}))
}

func sampleTinyText(t testing.TB) []byte {
	return encodeJPEG(t, drawSample(t, 1400, 400, navy, nil, []sampleText{{"FRESH COFFEE AT EXIT 12", 520, 215, 28, white}}))
}

func sampleGlaringWhite(t testing.TB) []byte {
	return encodeJPEG(t, drawSample(t, 1400, 400, white, nil, []sampleText{{"FRESH COFFEE", 160, 250, 150, black}}))
}

func sampleWordy(t testing.TB) []byte {
	return encodeJPEG(t, drawSample(t, 1400, 400, navy, nil, []sampleText{
		{"VISIT OUR NEW STORE", 100, 150, 90, white}, {"FOR THE BEST COFFEE IN ALL OF TOWN", 100, 290, 56, white}}))
}

func sampleAtTheEdge(t testing.TB) []byte {
	return encodeJPEG(t, drawSample(t, 1400, 400, navy, nil, []sampleText{{"FRESH COFFEE", 4, 392, 150, white}}))
}

package creatives

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"sort"
	"testing"
	"time"

	xdraw "golang.org/x/image/draw"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// The speed-ups of the analysis (docs/performance.md "Creative pre-flight and preview") must not
// move a pixel: the OCR and the scores read the same images as before.

// noisyPhoto is a w x h JPEG of random pixels, decoded (a YCbCr image, as uploads are).
func noisyPhoto(t *testing.T, w, h int) image.Image {
	t.Helper()
	rng := rand.New(rand.NewPCG(5, 6))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(rng.UintN(256))
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	out, err := jpeg.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The working copy made in two bands is the one-pass scaling, pixel for pixel (odd sizes, so
// that the bands' boundary falls between source pixels).
func TestWorkingCopyInBandsIsTheOnePassScaling(t *testing.T) {
	for _, size := range []image.Point{{1811, 1203}, {1401, 3}, {1403, 2801}} {
		img := noisyPhoto(t, size.X, size.Y)
		got, scale := workingCopy(img)
		want := image.NewRGBA(got.Bounds())
		xdraw.ApproxBiLinear.Scale(want, want.Bounds(), img, img.Bounds(), xdraw.Src, nil)
		if scale >= 1 || !bytes.Equal(got.Pix, want.Pix) {
			t.Errorf("%v: the banded copy (scale %v) differs from the one-pass scaling", size, scale)
		}
	}
}

// The grey copy is draw.Draw's grey, inverted when its mean is under 128, and the mean luminance
// is the WCAG one of every pixel.
func TestGreyCopyIsDrawsGreyInvertedWhenDark(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, bias := range []int{-90, 0, 90} { // mostly dark, even, mostly light
		img := image.NewRGBA(image.Rect(0, 0, 301, 97))
		for i := range img.Pix {
			v := int(rng.UintN(256)) + bias
			img.Pix[i] = uint8(min(255, max(0, v)))
			if i%4 == 3 {
				img.Pix[i] = 255
			}
		}
		gray, mean := greyCopy(img)
		want := image.NewGray(img.Bounds())
		draw.Draw(want, want.Bounds(), img, image.Point{}, draw.Src)
		sum, lumSum := 0, 0.0
		for i, v := range want.Pix {
			sum += int(v)
			lumSum += lum(img.Pix[4*i : 4*i+3])
		}
		if sum/len(want.Pix) < 128 {
			for i, v := range want.Pix {
				want.Pix[i] = 255 - v
			}
		}
		if !bytes.Equal(gray.Pix, want.Pix) {
			t.Errorf("bias %d: the grey copy differs from draw.Draw's (inverted when dark)", bias)
		}
		if mean != lumSum/float64(len(want.Pix)) {
			t.Errorf("bias %d: mean luminance %v, want %v", bias, mean, lumSum/float64(len(want.Pix)))
		}
	}
}

// requireTesseractHere skips where Tesseract is not installed, and fails under CI.
func requireTesseractHere(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("tesseract")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("tesseract is required under CI: %v (run make tools)", err)
		}
		t.Skipf("tesseract not installed: %v (run make tools)", err)
	}
	return bin
}

// wordImage is a light grey image with a dark bar: nothing Tesseract reads, quickly.
func wordImage() *image.Gray {
	g := image.NewGray(image.Rect(0, 0, 200, 50))
	draw.Draw(g, g.Bounds(), image.NewUniform(color.Gray{Y: 240}), image.Point{}, draw.Src)
	draw.Draw(g, image.Rect(20, 20, 180, 30), image.NewUniform(color.Gray{Y: 20}), image.Point{}, draw.Src)
	return g
}

// The timeout bounds the recognition, not the decode before it: a run started long before its
// image is handed over is not cut short for it. The image's file is removed.
func TestOCRTimeoutRunsFromTheImage(t *testing.T) {
	bin := requireTesseractHere(t)
	o := NewOCR(2 * time.Second)
	o.Binary = bin
	dir := t.TempDir()
	run := o.startOCR(t.Context(), dir, image.Pt(200, 50))
	defer run.close()
	time.Sleep(o.Timeout + 200*time.Millisecond) // a slow decode
	if _, err := run.recognise(wordImage()); err != nil {
		t.Fatalf("recognition after a slow decode: %v", err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Fatalf("left behind: %v", left)
	}
}

// A run whose image never comes (the decode failed) ends its processes and gives their slots
// back. An image whose working copy can be split starts a process for each strip; a shorter one,
// or one whose size is not known yet, only one.
func TestOCRRunClosedUnfedEndsItsProcess(t *testing.T) {
	bin := requireTesseractHere(t)
	o := NewOCR(time.Second)
	o.Binary = bin
	for _, size := range []image.Point{{1400, 400}, {2800, 2 * ocrSplitMinRows}, {}} {
		short := o.startOCR(t.Context(), t.TempDir(), size)
		if want := 1 + btoi(size.Y > 400); len(short.procs) != want {
			t.Errorf("%v: %d processes started, want %d", size, len(short.procs), want)
		}
		short.close()
	}
	run := o.startOCR(t.Context(), t.TempDir(), image.Pt(2533, 1900))
	if run == nil || len(run.procs) != ocrStrips || !run.procs[0].started || !run.procs[1].started {
		t.Fatalf("not a process a slot started: %+v", run)
	}
	procs := run.procs
	run.close()
	for _, p := range procs {
		if p.cmd.ProcessState == nil {
			t.Fatal("a process was not waited for")
		}
	}
	if !o.slots.TryAcquire(2) {
		t.Fatal("the slot was not given back")
	}
}

// When both OCR slots are taken, a run does not hold the decode up: it starts its process once
// the image is ready and a slot is free.
func TestOCRRunWaitsForASlotOnlyWithItsImage(t *testing.T) {
	bin := requireTesseractHere(t)
	o := NewOCR(5 * time.Second)
	o.Binary = bin
	if !o.slots.TryAcquire(2) {
		t.Fatal("slots")
	}
	t0 := time.Now()
	run := o.startOCR(t.Context(), t.TempDir(), image.Pt(2533, 1900))
	defer run.close()
	if len(run.procs) != 0 || time.Since(t0) > time.Second {
		t.Fatalf("the run started %d processes or waited %v with both slots taken", len(run.procs), time.Since(t0))
	}
	go func() {
		time.Sleep(100 * time.Millisecond)
		o.slots.Release(1)
	}()
	if _, err := run.recognise(wordImage()); err != nil {
		t.Fatalf("recognition once a slot is free: %v", err)
	}
	// A request gone while it waits for a slot ends the wait.
	ctx, cancel := context.WithCancel(t.Context())
	waiting := o.startOCR(ctx, t.TempDir(), image.Pt(200, 50))
	defer waiting.close()
	cancel()
	if _, err := waiting.recognise(wordImage()); err == nil {
		t.Fatal("a cancelled request got a recognition")
	}
}

// tallCreative is a w x h JPEG creative, decoded, with lines of text (Go Bold) down its height:
// size and baseline of each line given as fractions of h. grain > 0 adds random noise of that
// amplitude to the ground (each channel apart).
func tallCreative(t *testing.T, w, h int, bg, ink color.Color, grain int, lines []string, at [][2]float64) image.Image {
	img, _ := tallCreativeAndInk(t, w, h, bg, ink, grain, lines, at)
	return img
}

// tallCreativeAndInk is tallCreative with the mask of its letters' pixels.
func tallCreativeAndInk(t *testing.T, w, h int, bg, ink color.Color, grain int, lines []string, at [][2]float64) (image.Image, *image.Alpha) {
	t.Helper()
	f, err := opentype.Parse(gobold.TTF)
	if err != nil {
		t.Fatal(err)
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.NewUniform(bg), image.Point{}, draw.Src)
	if grain > 0 {
		rng := rand.New(rand.NewPCG(9, uint64(grain)))
		for i := range img.Pix {
			if i%4 != 3 {
				img.Pix[i] = uint8(min(255, max(0, int(img.Pix[i])+rng.IntN(2*grain+1)-grain)))
			}
		}
	}
	mask := image.NewAlpha(img.Bounds())
	for i, text := range lines {
		face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: at[i][0] * float64(h), DPI: 72, Hinting: font.HintingFull})
		if err != nil {
			t.Fatal(err)
		}
		for _, dst := range []struct {
			img draw.Image
			src image.Image
		}{{img, image.NewUniform(ink)}, {mask, image.Opaque}} {
			d := font.Drawer{Dst: dst.img, Src: dst.src, Face: face, Dot: fixed.P(w/14, int(at[i][1]*float64(h)))}
			d.DrawString(text)
		}
		_ = face.Close()
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 92}); err != nil {
		t.Fatal(err)
	}
	out, err := jpeg.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return out, mask
}

// recogniseWith reads gray with the given number of OCR slots free (one: a single process).
func recogniseWith(t *testing.T, bin string, gray *image.Gray, free int) ([]ocrWord, int) {
	t.Helper()
	o := NewOCR(20 * time.Second)
	o.Binary = bin
	if !o.slots.TryAcquire(int64(ocrStrips - free)) {
		t.Fatal("slots")
	}
	run := o.startOCR(t.Context(), t.TempDir(), gray.Rect.Size())
	defer run.close()
	words, err := run.recognise(gray)
	if err != nil {
		t.Fatal(err)
	}
	return words, len(run.procs)
}

// A tall creative with lines of text is read as two strips at once, cut between two lines, and
// the words (text, box) and the number of lines are those of one reading of the whole image.
func TestOCRSplitReadsTheWordsOfOneReading(t *testing.T) {
	bin := requireTesseractHere(t)
	lines := []string{"FRESH COFFEE", "OPEN EVERY DAY", "AT EXIT 12 ON THE LEFT", "Drive thru and parking at the back"}
	at := [][2]float64{{0.12, 0.17}, {0.09, 0.40}, {0.07, 0.62}, {0.045, 0.85}}
	for name, img := range map[string]image.Image{
		"light 1400x1050":       tallCreative(t, 1400, 1050, color.White, color.Black, 0, lines, at),
		"dark 2800x1900":        tallCreative(t, 2800, 1900, color.RGBA{0x0b, 0x3d, 0x91, 255}, color.White, 0, lines, at),
		"grey 1200x1600 (tall)": tallCreative(t, 1200, 1600, color.Gray{Y: 200}, color.Gray{Y: 60}, 0, lines, at),
		"grainy 2533x1900":      tallCreative(t, 2533, 1900, color.Gray{Y: 190}, color.Black, 60, lines, at),
	} {
		work, _ := workingCopy(img)
		gray, _ := greyCopy(work)
		cut, ok := ocrSplitRow(gray)
		if !ok {
			t.Fatalf("%s: no cut found between the lines", name)
		}
		split, procs := recogniseWith(t, bin, gray, 2)
		whole, single := recogniseWith(t, bin, gray, 1)
		if procs != 2 || single != 1 {
			t.Fatalf("%s: %d processes for the split run, %d for the whole one", name, procs, single)
		}
		key := func(ws []ocrWord) (boxes []string, lines int) {
			seen := map[string]bool{}
			for _, w := range ws {
				boxes = append(boxes, fmt.Sprintf("%s@%d,%d,%d,%d", w.text, w.x, w.y, w.w, w.h))
				seen[w.line] = true
			}
			sort.Strings(boxes)
			return boxes, len(seen)
		}
		gotBoxes, gotLines := key(split)
		wantBoxes, wantLines := key(whole)
		if len(wantBoxes) < 10 || !slices.Equal(gotBoxes, wantBoxes) || gotLines != wantLines {
			t.Errorf("%s, cut at row %d of %d: split read %v (%d lines), whole %v (%d lines)", name, cut, gray.Rect.Dy(), gotBoxes, gotLines, wantBoxes, wantLines)
		}
	}
}

// The cut goes only through blank ground or plain texture: never through a letter (its pixels
// drawn apart, scaled as the working copy is), whatever the letters' size and tone against the
// ground or its grain; and a short image is not cut.
func TestOCRSplitRowNeverCutsALetter(t *testing.T) {
	type ground struct {
		bg    color.Color
		grain int
	}
	grounds := []ground{{color.White, 0}, {color.Gray{Y: 128}, 127}, {color.Gray{Y: 200}, 40}, {color.Gray{Y: 60}, 15}}
	inks := []color.Color{color.Black, color.White, color.Gray{Y: 128}, color.Gray{Y: 90}}
	layouts := []struct {
		lines []string
		at    [][2]float64
	}{
		{[]string{"BIG"}, [][2]float64{{0.6, 0.75}}},                    // one headline over the middle third
		{[]string{"FRESH COFFEE"}, [][2]float64{{0.1, 0.53}}},           // a line across the middle
		{[]string{"at exit 12 turn left"}, [][2]float64{{0.02, 0.505}}}, // small letters (about 12 rows in the copy)
		{ // lines all down the middle third
			[]string{"ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX"},
			[][2]float64{{0.07, 0.37}, {0.07, 0.43}, {0.07, 0.49}, {0.07, 0.55}, {0.07, 0.61}, {0.07, 0.67}},
		},
	}
	cuts := 0
	for gi, g := range grounds {
		for ii, ink := range inks {
			if g.grain == 0 && color.GrayModel.Convert(ink) == color.GrayModel.Convert(g.bg) {
				continue // letters the colour of the ground are no letters
			}
			for li, l := range layouts {
				img, mask := tallCreativeAndInk(t, 1600, 1200, g.bg, ink, g.grain, l.lines, l.at)
				work, scale := workingCopy(img)
				gray, _ := greyCopy(work)
				cut, ok := ocrSplitRow(gray)
				if !ok {
					continue
				}
				cuts++
				// A letter crosses the cut when its ink is on both sides of it, beyond the row of
				// the source the scaling blends into the cut row (its edges: antialiasing).
				above, below := int(float64(cut)/scale)-2, int(float64(cut)/scale)+2
				for x := range mask.Rect.Dx() {
					if mask.AlphaAt(x, above).A > 0 && mask.AlphaAt(x, below).A > 0 {
						t.Fatalf("ground %d, ink %d, layout %d: the cut at row %d (source row %d) goes through a letter at x %d", gi, ii, li, cut, int(float64(cut)/scale), x)
					}
				}
			}
		}
	}
	// Noise holds no letter: its band is plain texture, and a copy this tall is cut.
	work, _ := workingCopy(noisyPhoto(t, 2533, 1900))
	gray, _ := greyCopy(work)
	if cut, ok := ocrSplitRow(gray); !ok || cut != gray.Rect.Dy()/2 {
		t.Errorf("noise: cut %v at row %d, want the middle", ok, cut)
	}
	short, _ := greyCopy(image.NewRGBA(image.Rect(0, 0, 1400, ocrSplitMinRows-1)))
	if cut, ok := ocrSplitRow(short); ok {
		t.Errorf("a copy %d rows high is cut at row %d", ocrSplitMinRows-1, cut)
	}
	t.Logf("%d of %d images cut", cuts, len(grounds)*len(inks)*len(layouts))
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

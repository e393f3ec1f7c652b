package creatives

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"math/rand/v2"
	"os"
	"os/exec"
	"testing"
	"time"

	xdraw "golang.org/x/image/draw"
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
	run := o.startOCR(t.Context(), dir)
	defer run.close()
	time.Sleep(o.Timeout + 200*time.Millisecond) // a slow decode
	if _, err := run.recognise(wordImage()); err != nil {
		t.Fatalf("recognition after a slow decode: %v", err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Fatalf("left behind: %v", left)
	}
}

// A run whose image never comes (the decode failed) ends its process and gives its slot back.
func TestOCRRunClosedUnfedEndsItsProcess(t *testing.T) {
	bin := requireTesseractHere(t)
	o := NewOCR(time.Second)
	o.Binary = bin
	run := o.startOCR(t.Context(), t.TempDir())
	if run == nil || !run.started {
		t.Fatalf("no process started: %+v", run)
	}
	run.close()
	if run.cmd.ProcessState == nil {
		t.Fatal("the process was not waited for")
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
	run := o.startOCR(t.Context(), t.TempDir())
	defer run.close()
	if run.started || time.Since(t0) > time.Second {
		t.Fatalf("the run started a process (%v) or waited %v with both slots taken", run.started, time.Since(t0))
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
	waiting := o.startOCR(ctx, t.TempDir())
	defer waiting.close()
	cancel()
	if _, err := waiting.recognise(wordImage()); err == nil {
		t.Fatal("a cancelled request got a recognition")
	}
}

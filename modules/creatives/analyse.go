package creatives

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"image"
	"image/draw"
	"image/png"
	"math"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"time"

	xdraw "golang.org/x/image/draw"
	"golang.org/x/sync/semaphore"

	"marquee/modules/creatives/internal/preflight"
)

// The image side of the pre-flight (docs/creatives.md "Uploaded images"): an uploaded creative is
// analysed once, on a copy of at most analyseMaxSide pixels a side, into a preflight.Input: its
// mean luminance and its separate elements from the pixels, its words (with their boxes, letter
// heights and contrast) from Tesseract.

// analyseMaxSide bounds the working copy: Tesseract reads billboard-sized letters well at this
// size (the builder's 1400 x 400 is read as it is), and the copy is at most 1400 x 1400 x 4
// bytes (7.5 MiB), whatever the upload.
const analyseMaxSide = 1400

// OCR reasons shown in a skipped check (the message reads "... could not be read: <reason>.").
const (
	ReasonNoOCR      = "text recognition (Tesseract) is not installed on this server"
	ReasonOCRTimeout = "text recognition took too long"
	ReasonOCRFailed  = "text recognition failed"
)

// ocrMinConfidence is the Tesseract word confidence (0-100) below which a word is taken for noise:
// Tesseract reports textures and edges as low-confidence "words".
const ocrMinConfidence = 60

// OCR runs the tesseract CLI (TSV output). Binary empty means it is not installed: the text checks
// are then skipped.
type OCR struct {
	Binary  string
	Timeout time.Duration
	// slots bounds the recognitions running at once: each is a process with its own memory.
	slots *semaphore.Weighted
}

// NewOCR finds tesseract on the PATH (none: text checks skipped) with a timeout per recognition.
func NewOCR(timeout time.Duration) *OCR {
	bin, err := exec.LookPath("tesseract")
	if err != nil {
		bin = ""
	}
	return &OCR{Binary: bin, Timeout: timeout, slots: semaphore.NewWeighted(2)}
}

// ocrWord is one recognised word, in the working copy's pixels.
type ocrWord struct {
	text       string
	x, y, w, h int
	line       string // block/paragraph/line: the words of one line share it
}

// errOCRTimeout is a recognition cut short by the timeout.
var errOCRTimeout = errors.New("ocr timeout")

// words runs tesseract on a grayscale PNG of img and answers the confident words.
func (o *OCR) words(ctx context.Context, img *image.RGBA, tempDir string) ([]ocrWord, error) {
	if err := o.slots.Acquire(ctx, 1); err != nil {
		return nil, err
	}
	defer o.slots.Release(1)
	gray := image.NewGray(img.Bounds())
	draw.Draw(gray, gray.Bounds(), img, img.Bounds().Min, draw.Src)
	// Tesseract reads dark text on a light ground best, and misses light lines on a dark ground
	// (white copy on navy, usual on billboards): a mostly dark image is inverted first.
	var sum int
	for _, v := range gray.Pix {
		sum += int(v)
	}
	if len(gray.Pix) > 0 && sum/len(gray.Pix) < 128 {
		for i, v := range gray.Pix {
			gray.Pix[i] = 255 - v
		}
	}
	// Named like a staged upload, so the debris of a crash is removed at the next start.
	f, err := os.CreateTemp(tempDir, stagedUploadPrefix+"ocr-*.png")
	if err != nil {
		return nil, err
	}
	defer func() { _ = os.Remove(f.Name()) }()
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(f, gray); err != nil {
		_ = f.Close()
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	// --psm 11: sparse text, in no particular order, as on an ad; one thread, so that one upload
	// cannot take every core.
	cmd := exec.CommandContext(ctx, o.Binary, f.Name(), "stdout", "-l", "eng", "--psm", "3", "tsv") // #nosec G204 -- the binary is tesseract from the PATH, the argument our own temporary file
	cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
	var out bytes.Buffer
	cmd.Stdout = &out
	err = cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		return nil, errOCRTimeout
	}
	if err != nil {
		return nil, err
	}
	return parseTSV(out.Bytes()), nil
}

// parseTSV reads tesseract's TSV: level 5 rows are words with their box and confidence.
func parseTSV(b []byte) []ocrWord {
	var out []ocrWord
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) < 12 || f[0] != "5" {
			continue
		}
		conf, err := strconv.ParseFloat(f[10], 64)
		text := strings.TrimSpace(f[11])
		if err != nil || conf < ocrMinConfidence || preflight.CountWords(text) == 0 {
			continue
		}
		n := make([]int, 4)
		ok := true
		for i := range 4 {
			if n[i], err = strconv.Atoi(f[6+i]); err != nil {
				ok = false
			}
		}
		if ok && n[2] > 0 && n[3] > 0 {
			out = append(out, ocrWord{text: text, x: n[0], y: n[1], w: n[2], h: n[3], line: f[2] + "/" + f[3] + "/" + f[4]})
		}
	}
	return out
}

// workingCopy is img at most analyseMaxSide a side, as RGBA, and its scale from img's pixels.
func workingCopy(img image.Image) (*image.RGBA, float64) {
	b := img.Bounds()
	scale := math.Min(1, float64(analyseMaxSide)/float64(max(b.Dx(), b.Dy())))
	w, h := max(1, int(math.Round(float64(b.Dx())*scale))), max(1, int(math.Round(float64(b.Dy())*scale)))
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	if scale == 1 {
		draw.Draw(dst, dst.Bounds(), img, b.Min, draw.Src)
	} else {
		xdraw.ApproxBiLinear.Scale(dst, dst.Bounds(), img, b, xdraw.Src, nil)
	}
	return dst, scale
}

// linear is the WCAG linearisation of each 8-bit channel value.
var linear = func() (t [256]float64) {
	for i := range t {
		c := preflight.RGB{R: uint8(i)}
		t[i] = preflight.Luminance(c) / 0.2126
	}
	return t
}()

func lum(p []uint8) float64 { return 0.2126*linear[p[0]] + 0.7152*linear[p[1]] + 0.0722*linear[p[2]] }

// analyse makes the pre-flight input of a decoded image. The pixel measures always run; the text
// ones need OCR, and say why when they could not run.
func analyse(ctx context.Context, img image.Image, ocr *OCR, tempDir string) preflight.Input {
	b := img.Bounds()
	work, scale := workingCopy(img)
	in := preflight.Input{Width: b.Dx(), Height: b.Dy(), Texts: []preflight.Text{}}
	var sum float64
	px := work.Pix
	for i := 0; i+3 < len(px); i += 4 {
		sum += lum(px[i : i+3])
	}
	in.MeanLuminance = sum / float64(len(px)/4)
	var words []ocrWord
	switch {
	case ocr == nil || ocr.Binary == "":
		in.TextSkipped = ReasonNoOCR
	default:
		var err error
		words, err = ocr.words(ctx, work, tempDir)
		switch {
		case errors.Is(err, errOCRTimeout):
			in.TextSkipped = ReasonOCRTimeout
		case err != nil:
			in.TextSkipped = ReasonOCRFailed
		default:
			for _, w := range words {
				in.Texts = append(in.Texts, preflight.Text{Text: w.text,
					X: float64(w.x) / scale, Y: float64(w.y) / scale, W: float64(w.w) / scale, H: float64(w.h) / scale,
					LetterHeightPx: float64(w.h) / scale * preflight.OCRLetterRatio, Contrast: boxContrast(work, w)})
			}
		}
	}
	// The elements: each line of text is one, and the graphics apart from the text are counted on
	// the grid (without OCR, letters count there too).
	lines := map[string]bool{}
	masks := make([]image.Rectangle, 0, len(words))
	for _, w := range words {
		lines[w.line] = true
		pad := w.h / 4
		masks = append(masks, image.Rect(w.x-pad, w.y-pad, w.x+w.w+pad, w.y+w.h+pad))
	}
	in.Elements = len(lines) + countElements(work, masks)
	return in
}

// boxContrast is the WCAG contrast between the letters and the background of a word's box: the
// luminances at the 10th and 90th percentiles of its pixels (one of them is the letters').
func boxContrast(img *image.RGBA, w ocrWord) float64 {
	r := image.Rect(w.x, w.y, w.x+w.w, w.y+w.h).Intersect(img.Bounds())
	if r.Empty() {
		return 1
	}
	ls := make([]float64, 0, r.Dx()*r.Dy())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			i := img.PixOffset(x, y)
			ls = append(ls, lum(img.Pix[i:i+3]))
		}
	}
	sort.Float64s(ls)
	lo, hi := ls[len(ls)/10], ls[len(ls)*9/10]
	return (hi + 0.05) / (lo + 0.05)
}

// countElements counts the separate elements of an image: on a grid of at most ClutterGrid cells a
// side, the cells whose mean colour is far from the background's (the most common cell colour),
// less the cells under masks (the words OCR found: the caller counts each text line once), in
// 4-connected groups of at least ClutterMinCells cells. A cell is about a billboard letter's width,
// so the letters of a word touch.
func countElements(img *image.RGBA, masks []image.Rectangle) int {
	b := img.Bounds()
	cell := max(1, (max(b.Dx(), b.Dy())+preflight.ClutterGrid-1)/preflight.ClutterGrid)
	gw, gh := (b.Dx()+cell-1)/cell, (b.Dy()+cell-1)/cell
	means := make([][3]int, gw*gh)
	counts := make([]int, gw*gh)
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			i, c := img.PixOffset(x, y), (y/cell)*gw+x/cell
			means[c][0] += int(img.Pix[i])
			means[c][1] += int(img.Pix[i+1])
			means[c][2] += int(img.Pix[i+2])
			counts[c]++
		}
	}
	hist := map[[3]int]int{}
	for c := range means {
		for k := range 3 {
			means[c][k] /= max(1, counts[c])
		}
		hist[[3]int{means[c][0] / 32, means[c][1] / 32, means[c][2] / 32}]++
	}
	var bgKey [3]int
	best := -1
	for k, n := range hist {
		if n > best || (n == best && less3(k, bgKey)) {
			bgKey, best = k, n
		}
	}
	var bg [3]int
	n := 0
	for c := range means {
		if [3]int{means[c][0] / 32, means[c][1] / 32, means[c][2] / 32} == bgKey {
			for k := range 3 {
				bg[k] += means[c][k]
			}
			n++
		}
	}
	for k := range 3 {
		bg[k] /= max(1, n)
	}
	fg := make([]bool, gw*gh)
	for c, m := range means {
		d := abs(m[0]-bg[0]) + abs(m[1]-bg[1]) + abs(m[2]-bg[2])
		fg[c] = d > preflight.ClutterDelta
	}
	for _, r := range masks {
		r = r.Intersect(b)
		if r.Empty() {
			continue
		}
		for y := r.Min.Y / cell; y <= (r.Max.Y-1)/cell; y++ {
			for x := r.Min.X / cell; x <= (r.Max.X-1)/cell; x++ {
				fg[y*gw+x] = false
			}
		}
	}
	grown := fg
	seen := make([]bool, len(grown))
	elements := 0
	stack := make([]int, 0, 64)
	for start := range grown {
		if !grown[start] || seen[start] {
			continue
		}
		size := 0
		stack = append(stack[:0], start)
		seen[start] = true
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			size++
			x, y := c%gw, c/gw
			for _, nb := range [4][2]int{{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}} {
				if nb[0] >= 0 && nb[1] >= 0 && nb[0] < gw && nb[1] < gh {
					if i := nb[1]*gw + nb[0]; grown[i] && !seen[i] {
						seen[i] = true
						stack = append(stack, i)
					}
				}
			}
		}
		if size >= preflight.ClutterMinCells {
			elements++
		}
	}
	return elements
}

func less3(a, b [3]int) bool {
	for i := range 3 {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

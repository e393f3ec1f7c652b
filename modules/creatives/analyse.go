package creatives

import (
	"errors"
	"image"
	"image/draw"
	"math"
	"sort"
	"sync"

	xdraw "golang.org/x/image/draw"

	"marquee/modules/creatives/internal/preflight"
)

// The image side of the pre-flight (docs/creatives.md "Uploaded images"): an uploaded creative is
// analysed once, on a copy of at most analyseMaxSide pixels a side, into a preflight.Input: its
// mean luminance and its separate elements from the pixels, its words (with their boxes, letter
// heights and contrast) from Tesseract (ocr.go).

// analyseMaxSide bounds the working copy: Tesseract reads billboard-sized letters well at this
// size (the builder's 1400 x 400 is read as it is), and the copy is at most 1400 x 1400 x 4
// bytes (7.5 MiB), whatever the upload.
const analyseMaxSide = 1400

// workingCopy is img at most analyseMaxSide a side, as RGBA, and its scale from img's pixels. A
// scaled copy is made in two bands at once, one a core: each band is the same scaling clipped to
// its rows (x/image/draw maps every destination pixel from the whole rectangles), so the pixels
// are those of one pass.
func workingCopy(img image.Image) (*image.RGBA, float64) {
	b := img.Bounds()
	scale := workingScale(b.Size())
	size := workingSize(b.Size())
	w, h := size.X, size.Y
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	if scale == 1 {
		draw.Draw(dst, dst.Bounds(), img, b.Min, draw.Src)
		return dst, scale
	}
	var wg sync.WaitGroup
	for _, band := range []image.Rectangle{image.Rect(0, 0, w, h/2), image.Rect(0, h/2, w, h)} {
		wg.Go(func() {
			xdraw.ApproxBiLinear.Scale(dst.SubImage(band).(*image.RGBA), dst.Bounds(), img, b, xdraw.Src, nil)
		})
	}
	wg.Wait()
	return dst, scale
}

// workingScale is the scale of the working copy of an image of size.
func workingScale(size image.Point) float64 {
	return math.Min(1, float64(analyseMaxSide)/float64(max(size.X, size.Y, 1)))
}

// workingSize is the size of the working copy of an image of size.
func workingSize(size image.Point) image.Point {
	scale := workingScale(size)
	return image.Pt(max(1, int(math.Round(float64(size.X)*scale))), max(1, int(math.Round(float64(size.Y)*scale))))
}

// greyCopy is the grey image Tesseract reads, made in the pass that sums the mean luminance. The
// grey is image/color's GrayModel of the (premultiplied) pixel, as draw.Draw would make it.
// Tesseract reads dark text on a light ground best, and misses light lines on a dark ground
// (white copy on navy, usual on billboards): a mostly dark image is inverted.
func greyCopy(img *image.RGBA) (gray *image.Gray, meanLuminance float64) {
	b := img.Bounds()
	gray = image.NewGray(image.Rect(0, 0, b.Dx(), b.Dy()))
	var lumSum float64
	var greySum int
	for y := range b.Dy() {
		row := img.Pix[y*img.Stride : y*img.Stride+4*b.Dx()]
		out := gray.Pix[y*gray.Stride : y*gray.Stride+b.Dx()]
		for x := range out {
			p := row[4*x : 4*x+3 : 4*x+3]
			lumSum += lum(p)
			r, g, bl := uint32(p[0])*0x101, uint32(p[1])*0x101, uint32(p[2])*0x101
			v := uint8((19595*r + 38470*g + 7471*bl + 1<<15) >> 24)
			out[x] = v
			greySum += int(v)
		}
	}
	n := b.Dx() * b.Dy()
	if n > 0 && greySum/n < 128 {
		for i, v := range gray.Pix {
			gray.Pix[i] = 255 - v
		}
	}
	return gray, lumSum / float64(n)
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

// analyse makes the pre-flight input of a decoded image, with the recognition started for it
// (nil: no OCR). The pixel measures always run, beside the recognition; the text ones need OCR,
// and say why when they could not run.
func analyse(img image.Image, run *ocrRun) preflight.Input {
	b := img.Bounds()
	work, scale := workingCopy(img)
	gray, meanLuminance := greyCopy(work)
	in := preflight.Input{Width: b.Dx(), Height: b.Dy(), Texts: []preflight.Text{}, MeanLuminance: meanLuminance}
	var words []ocrWord
	var ocrErr error
	var wg sync.WaitGroup
	if run != nil {
		wg.Go(func() { words, ocrErr = run.recognise(gray) })
	}
	// The grid's cells are measured while Tesseract reads (the words only mask cells afterwards).
	grid := measureCells(work)
	wg.Wait()
	switch {
	case run == nil:
		in.TextSkipped = ReasonNoOCR
	case errors.Is(ocrErr, errOCRTimeout):
		in.TextSkipped = ReasonOCRTimeout
		words = nil
	case ocrErr != nil:
		in.TextSkipped = ReasonOCRFailed
		words = nil
	default:
		for _, w := range words {
			in.Texts = append(in.Texts, preflight.Text{Text: w.text,
				X: float64(w.x) / scale, Y: float64(w.y) / scale, W: float64(w.w) / scale, H: float64(w.h) / scale,
				LetterHeightPx: float64(w.h) / scale * preflight.OCRLetterRatio, Contrast: boxContrast(work, w)})
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
	in.Elements = len(lines) + grid.elements(masks)
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

// cellGrid is an image measured on a grid of at most ClutterGrid cells a side: which cells' mean
// colour is far from the background's (the most common cell colour). A cell is about a
// billboard letter's width, so the letters of a word touch.
type cellGrid struct {
	bounds     image.Rectangle
	cell       int
	gw, gh     int
	foreground []bool
}

// measureCells makes the grid of an image.
func measureCells(img *image.RGBA) cellGrid {
	b := img.Bounds()
	cell := max(1, (max(b.Dx(), b.Dy())+preflight.ClutterGrid-1)/preflight.ClutterGrid)
	gw, gh := (b.Dx()+cell-1)/cell, (b.Dy()+cell-1)/cell
	means := make([][3]int, gw*gh)
	counts := make([]int, gw*gh)
	for y := 0; y < b.Dy(); y++ {
		row := img.Pix[y*img.Stride : y*img.Stride+4*b.Dx()]
		cells := means[(y/cell)*gw : (y/cell+1)*gw]
		rowCounts := counts[(y/cell)*gw : (y/cell+1)*gw]
		for x := 0; x < b.Dx(); x++ {
			m, p := &cells[x/cell], row[4*x:4*x+3:4*x+3]
			m[0] += int(p[0])
			m[1] += int(p[1])
			m[2] += int(p[2])
			rowCounts[x/cell]++
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
	return cellGrid{bounds: b, cell: cell, gw: gw, gh: gh, foreground: fg}
}

// elements counts the separate elements of the grid: its foreground cells less the cells under
// masks (the words OCR found: the caller counts each text line once), in 4-connected groups of
// at least ClutterMinCells cells.
func (g cellGrid) elements(masks []image.Rectangle) int {
	b, cell, gw, gh := g.bounds, g.cell, g.gw, g.gh
	fg := append([]bool(nil), g.foreground...)
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

// The cut of a tall working copy into two strips read at once (ocr.go): only through blank ground,
// so that each strip holds whole lines and the words are those of one reading.
const (
	// ocrSplitMinRows: a shorter copy is read whole (two model loads for little reading).
	ocrSplitMinRows = 600
	// ocrSplitBand: the rows each side of the cut that must be blank.
	ocrSplitBand = 4
	// ocrSplitWindow: the width of the windows, overlapping by half, in which the band is judged:
	// about a small letter's width, so that a letter's stem is a good part of a window.
	ocrSplitWindow = 32
	// ocrSplitFlatVariance: a window whose grey variance is under this is blank ground (JPEG
	// ripple, a gradient). A stem 2 px wide and 10 grey levels from its ground makes about 6.
	ocrSplitFlatVariance = 4
)

// ocrSplitRow answers the row where gray may be cut in two strips for the OCR, if any: in its
// middle third, a row whose band (ocrSplitBand rows each side) is blank ground in every window
// along it, so that no letter crosses the cut (a letter's stems cross every row of its line), and,
// among those, the one with the least edge energy (the middle of a gap between lines).
//
// Texture (a photo, the benchmark's random JPEG) is never cut, though noise holds no line to cut:
// a line of text on it holds no blank row either, and no cheap measure tells a thin or faint
// stroke from grain for certain (docs/creatives.md "Uploaded images").
func ocrSplitRow(gray *image.Gray) (int, bool) {
	w, h := gray.Rect.Dx(), gray.Rect.Dy()
	if h < ocrSplitMinRows || w < ocrSplitWindow {
		return 0, false
	}
	half := ocrSplitWindow / 2
	blocks := (w + half - 1) / half
	first, last := h/3-ocrSplitBand, 2*h/3+ocrSplitBand // the rows any band covers
	n := last - first
	// Running sums over rows of the grey and its square in each half-window block: a band's sums
	// are two lookups.
	type sums struct{ s, ss int64 }
	run := make([]sums, (n+1)*blocks)
	energy := make([]int64, n)
	for i := range n {
		y := first + i
		row := run[(i+1)*blocks : (i+2)*blocks]
		copy(row, run[i*blocks:(i+1)*blocks])
		pix := gray.Pix[gray.PixOffset(gray.Rect.Min.X, gray.Rect.Min.Y+y):][:w]
		above := gray.Pix[gray.PixOffset(gray.Rect.Min.X, gray.Rect.Min.Y+y-1):][:w] // y > 0: first >= 196
		for x, v8 := range pix {
			v := int64(v8)
			c := &row[x/half]
			c.s += v
			c.ss += v * v
			if x > 0 {
				energy[i] += abs64(v - int64(pix[x-1]))
			}
			energy[i] += abs64(v - int64(above[x]))
		}
	}
	best := -1
	for y := h / 3; y < 2*h/3; y++ {
		top, bottom := run[(y-ocrSplitBand-first)*blocks:], run[(y+ocrSplitBand-first)*blocks:]
		blank := true
		for b := 0; b+1 < blocks && blank; b++ {
			s := bottom[b].s - top[b].s + bottom[b+1].s - top[b+1].s
			ss := bottom[b].ss - top[b].ss + bottom[b+1].ss - top[b+1].ss
			count := int64(min(ocrSplitWindow, w-b*half) * 2 * ocrSplitBand)
			// variance < limit, in integers: count*ss - s*s < limit*count*count
			blank = count*ss-s*s < ocrSplitFlatVariance*count*count
		}
		if blank && (best < 0 || energy[y-first] < energy[best-first]) {
			best = y
		}
	}
	if best < 0 {
		return textureCutRow(gray)
	}
	return best, true
}

// Where no band is blank, a band of plain texture may be cut: fine grain the same everywhere along
// the band (the benchmark's random JPEG, film grain, gravel), which holds no letter. A letter
// crossing the cut shows in the band as columns unlike the texture: its stems' mean differs from
// the texture's, or its stems are solid (their variance far below the texture's), whatever their
// tone. The band is judged in windows of a few columns by a few rows, for small letters (their
// stems fill a narrow, short window), and wider and taller ones, for large letters, against
// what the texture's grain alone gives (its standard error in a window of n pixels).
type textureWindow struct {
	halfRows, cols int     // the window: rows each side of the cut, columns (half overlapping)
	minVariance    float64 // of the band's: under this, the window holds a solid area
}

var textureWindows = []textureWindow{
	{6, 2, 0},       // a stem 2 columns wide of a letter 10 rows high
	{6, 4, 1.0 / 3}, // a solid stem 3 columns wide fills three quarters of it
	{24, 16, 0.7},
	{24, 64, 0.8},
}

const (
	// textureBand: the most rows each side of the cut any window reaches.
	textureBand = 24
	// textureMinVariance: the grain must be marked (a standard deviation of 10 levels); a smooth
	// photo is not texture.
	textureMinVariance = 100
	// textureMeanSigmas: how far a window's mean may be from the band's, in standard errors of
	// independent pixels. Measured on the benchmark's noise copy: TODO.
	textureMeanSigmas = 4.5
)

// textureCutRow answers the row of gray's middle third nearest the middle whose band is plain
// texture (see above), if any. Each window height is judged only when the ones before it passed:
// a photo fails at once, in the first, smallest windows.
func textureCutRow(gray *image.Gray) (int, bool) {
	w, h := gray.Rect.Dx(), gray.Rect.Dy()
	if w < 64 || h < ocrSplitMinRows {
		return 0, false
	}
	colS, colSS := make([]int64, w+1), make([]int64, w+1) // prefix sums over columns of the window rows' sums
	plain := func(y int) bool {
		for _, win := range textureWindows {
			clear(colS)
			clear(colSS)
			for yy := y - win.halfRows; yy < y+win.halfRows; yy++ { // row by row: the cache's order
				row := gray.Pix[gray.PixOffset(gray.Rect.Min.X, gray.Rect.Min.Y+yy):][:w]
				for x, v8 := range row {
					v := int64(v8)
					colS[x+1] += v
					colSS[x+1] += v * v
				}
			}
			for x := range w {
				colS[x+1] += colS[x]
				colSS[x+1] += colSS[x]
			}
			if !plainWindows(win, colS, colSS, w) {
				return false
			}
		}
		return true
	}
	// Rows tried from the middle outwards: the first plain band wins (strips of even work).
	for d := 0; d < h/6; d++ {
		for _, y := range []int{h/2 + d, h/2 - d - 1} {
			if plain(y) {
				return y, true
			}
		}
	}
	return 0, false
}

// plainWindows judges the windows of one size along a band, from the prefix sums of the band's
// columns (see textureCutRow).
func plainWindows(win textureWindow, colS, colSS []int64, w int) bool {
	rows := float64(2 * win.halfRows)
	n := float64(w) * rows
	mean := float64(colS[w]) / n
	variance := float64(colSS[w])/n - mean*mean
	if variance < textureMinVariance {
		return false
	}
	count := float64(win.cols) * rows
	limit := textureMeanSigmas * math.Sqrt(variance/count)
	for a := 0; a+win.cols <= w; a += max(1, win.cols/2) {
		m := float64(colS[a+win.cols]-colS[a]) / count
		v := float64(colSS[a+win.cols]-colSS[a])/count - m*m
		if math.Abs(m-mean) > limit || v < win.minVariance*variance {
			return false
		}
	}
	return true
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

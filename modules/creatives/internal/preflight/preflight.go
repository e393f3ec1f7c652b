package preflight

import (
	"math"
	"strconv"
	"strings"
	"unicode"
)

// Face is what the checks need of a billboard face: its physical size, its pixels and the distance
// it is read from.
type Face struct {
	ID                string  `json:"id"`
	WidthFt           float64 `json:"width_ft"`
	HeightFt          float64 `json:"height_ft"`
	PixelWidth        int     `json:"pixel_width"`
	PixelHeight       int     `json:"pixel_height"`
	DistanceClass     string  `json:"distance_class"`
	ViewingDistanceFt float64 `json:"viewing_distance_ft"`
}

// Text is one piece of text on the creative: its box in creative pixels, the height of its capital
// letters in creative pixels, and its contrast ratio with what is behind it.
type Text struct {
	Text           string  `json:"text"`
	X              float64 `json:"x"`
	Y              float64 `json:"y"`
	W              float64 `json:"w"`
	H              float64 `json:"h"`
	LetterHeightPx float64 `json:"letter_height_px"`
	Contrast       float64 `json:"contrast"`
}

// Input is a creative as the checks see it, from a builder design (FromDesign) or an analysed
// image. TextSkipped, when set, says why the text could not be read (no OCR, a timeout): the text
// checks are then skipped and the image checks still run.
type Input struct {
	Width         int     `json:"width"`
	Height        int     `json:"height"`
	Texts         []Text  `json:"texts"`
	TextSkipped   string  `json:"text_skipped,omitempty"`
	MeanLuminance float64 `json:"mean_luminance"`
	Elements      int     `json:"elements"`
}

// Check is one check's outcome. Value and Threshold are in the rule's Unit; Fit is the size check's
// fit mode.
type Check struct {
	ID        string  `json:"id"`
	Level     string  `json:"level"`
	Message   string  `json:"message"`
	Hint      string  `json:"hint"`
	Value     float64 `json:"value"`
	Threshold float64 `json:"threshold"`
	Unit      string  `json:"unit"`
	Fit       string  `json:"fit,omitempty"`
}

// FaceReport is the checks of a creative on one face.
type FaceReport struct {
	FaceID string  `json:"face_id"`
	Score  int     `json:"score"`
	Checks []Check `json:"checks"`
}

// Report is a creative's pre-flight: one FaceReport per face, and overall the lowest face score and
// the worst outcome of each check over the faces (what the advertiser should fix first).
type Report struct {
	Score  int          `json:"score"`
	Checks []Check      `json:"checks"`
	Faces  []FaceReport `json:"faces"`
}

// Evaluate runs the checks of in on each face (ReferenceFace when there is none).
func Evaluate(in Input, faces []Face) Report {
	if len(faces) == 0 {
		faces = []Face{ReferenceFace}
	}
	rep := Report{Faces: make([]FaceReport, 0, len(faces))}
	for i, f := range faces {
		fr := evaluateFace(in, f)
		rep.Faces = append(rep.Faces, fr)
		if i == 0 || fr.Score < rep.Score {
			rep.Score = fr.Score
		}
		if i == 0 {
			rep.Checks = append([]Check(nil), fr.Checks...)
			continue
		}
		for j, c := range fr.Checks {
			if levelRank[c.Level] > levelRank[rep.Checks[j].Level] {
				rep.Checks[j] = c
			}
		}
	}
	return rep
}

// levelRank orders levels from best to worst for the overall report.
var levelRank = map[string]int{LevelSkipped: 0, LevelPass: 1, LevelWarning: 2, LevelFail: 3}

func evaluateFace(in Input, f Face) FaceReport {
	checks := []Check{
		sizeCheck(in, f), wordsCheck(in), letterHeightCheck(in, f), contrastCheck(in),
		nightCheck(in), safeAreaCheck(in), clutterCheck(in),
	}
	return FaceReport{FaceID: f.ID, Score: Score(checks), Checks: checks}
}

// Score is the weighted share of the checks passed, out of 100: a pass earns its rule's weight, a
// warning half of it, a fail nothing; skipped checks are left out and the rest scaled to 100.
func Score(checks []Check) int {
	var earned, possible float64
	for _, c := range checks {
		credit, ok := LevelCredit[c.Level]
		if !ok {
			continue
		}
		w := float64(Rule(c.ID).Weight)
		earned += w * credit
		possible += w
	}
	if possible == 0 {
		return 0
	}
	return int(math.Round(100 * earned / possible))
}

// level judges a value against a rule's limits.
func level(r CheckRule, v float64) string {
	if r.Higher {
		switch {
		case v >= r.Pass:
			return LevelPass
		case v >= r.Warn:
			return LevelWarning
		}
		return LevelFail
	}
	switch {
	case v <= r.Pass:
		return LevelPass
	case v <= r.Warn:
		return LevelWarning
	}
	return LevelFail
}

// check builds a check from its rule's message of key, with the placeholders filled.
func check(r CheckRule, lvl, key string, value, threshold float64, vars map[string]string) Check {
	m := r.Messages[key]
	repl := []string{"{value}", FormatNumber(value), "{threshold}", FormatNumber(threshold)}
	for k, v := range vars {
		repl = append(repl, "{"+k+"}", v)
	}
	rp := strings.NewReplacer(repl...)
	return Check{ID: r.ID, Level: lvl, Message: rp.Replace(m.Message), Hint: rp.Replace(m.Hint), Value: Round2(value), Threshold: threshold, Unit: r.Unit}
}

// Round2 rounds to two decimals, as the web app's Math.round(x * 100) / 100 does for the
// non-negative figures of the checks.
func Round2(x float64) float64 { return math.Floor(x*100+0.5) / 100 }

// FormatNumber writes a figure as the messages show it: at most two decimals, no trailing zeros
// (JavaScript's String(Math.round(x * 100) / 100)).
func FormatNumber(x float64) string { return strconv.FormatFloat(Round2(x), 'f', -1, 64) }

func sizeCheck(in Input, f Face) Check {
	r := Rule(CheckSize)
	fit := strconv.Itoa(f.PixelWidth) + " x " + strconv.Itoa(f.PixelHeight)
	vars := map[string]string{"fit": fit}
	if in.Width <= 0 || in.Height <= 0 || f.PixelWidth <= 0 || f.PixelHeight <= 0 {
		c := check(r, LevelFail, "fail", 100, r.Pass, vars)
		c.Fit = FitLetterboxed
		return c
	}
	diff := math.Abs(float64(in.Width)*float64(f.PixelHeight)/(float64(in.Height)*float64(f.PixelWidth))-1) * 100
	var c Check
	switch {
	case in.Width == f.PixelWidth && in.Height == f.PixelHeight:
		c = check(r, LevelPass, "exact", 0, r.Pass, vars)
		c.Fit = FitExact
	case diff <= r.Pass:
		scale := float64(f.PixelWidth) / float64(in.Width)
		if scale > UpscaleWarn {
			c = check(r, LevelWarning, "upscaled", diff, UpscaleWarn, vars)
		} else {
			c = check(r, LevelPass, "scaled", diff, r.Pass, vars)
		}
		c.Fit = FitScaled
	case diff <= r.Warn:
		c = check(r, LevelWarning, "letterboxed", diff, r.Pass, vars)
		c.Fit = FitLetterboxed
	default:
		c = check(r, LevelFail, "fail", diff, r.Pass, vars)
		c.Fit = FitLetterboxed
	}
	return c
}

// CountWords counts the words of a text: runs between spaces that hold a letter or a digit (a lone
// "&" or "-" is not a word).
func CountWords(s string) int {
	n := 0
	for _, w := range strings.Fields(s) {
		for _, ch := range w {
			if unicode.IsLetter(ch) || unicode.IsDigit(ch) {
				n++
				break
			}
		}
	}
	return n
}

func skipped(r CheckRule, reason string) Check {
	c := check(r, LevelSkipped, "skipped", 0, r.Pass, map[string]string{"reason": reason})
	return c
}

func wordsCheck(in Input) Check {
	r := Rule(CheckWords)
	if in.TextSkipped != "" {
		return skipped(r, in.TextSkipped)
	}
	n := 0
	for _, t := range in.Texts {
		n += CountWords(t.Text)
	}
	if n == 0 {
		return check(r, LevelPass, "none", 0, r.Pass, nil)
	}
	lvl := level(r, float64(n))
	return check(r, lvl, lvl, float64(n), r.Pass, nil)
}

// InchesPerPixel is the height on the face, in inches, of one creative pixel once the creative is
// fitted to the face (scaled to fit inside it, letterboxed if its shape differs).
func InchesPerPixel(in Input, f Face) float64 {
	if in.Width <= 0 || in.Height <= 0 {
		return 0
	}
	return math.Min(f.WidthFt*12/float64(in.Width), f.HeightFt*12/float64(in.Height))
}

func letterHeightCheck(in Input, f Face) Check {
	r := Rule(CheckLetterHeight)
	if in.TextSkipped != "" {
		return skipped(r, in.TextSkipped)
	}
	minPx := math.Inf(1)
	for _, t := range in.Texts {
		if CountWords(t.Text) > 0 && t.LetterHeightPx < minPx {
			minPx = t.LetterHeightPx
		}
	}
	need := f.ViewingDistanceFt / LegibilityIndex
	if math.IsInf(minPx, 1) {
		return check(r, LevelPass, "none", 0, Round2(need), nil)
	}
	inches := minPx * InchesPerPixel(in, f)
	distance := inches * LegibilityIndex
	ratio := 0.0
	if f.ViewingDistanceFt > 0 {
		ratio = distance / f.ViewingDistanceFt
	} else {
		ratio = r.Pass
	}
	lvl := level(r, ratio)
	vars := map[string]string{"distance": FormatNumber(math.Round(distance)), "viewing": FormatNumber(f.ViewingDistanceFt)}
	return check(r, lvl, lvl, inches, Round2(need), vars)
}

func contrastCheck(in Input) Check {
	r := Rule(CheckContrast)
	if in.TextSkipped != "" {
		return skipped(r, in.TextSkipped)
	}
	lowest := math.Inf(1)
	for _, t := range in.Texts {
		if CountWords(t.Text) > 0 && t.Contrast < lowest {
			lowest = t.Contrast
		}
	}
	if math.IsInf(lowest, 1) {
		return check(r, LevelPass, "none", 0, r.Pass, nil)
	}
	lvl := level(r, lowest)
	return check(r, lvl, lvl, lowest, r.Pass, nil)
}

func nightCheck(in Input) Check {
	r := Rule(CheckNightBrightness)
	lvl := level(r, in.MeanLuminance)
	return check(r, lvl, lvl, in.MeanLuminance, r.Pass, nil)
}

// MarginPct is how close a box comes to the creative's edges, in percent of the side it nears
// (negative when it crosses it).
func MarginPct(t Text, w, h int) float64 {
	if w <= 0 || h <= 0 {
		return 0
	}
	W, H := float64(w), float64(h)
	return 100 * math.Min(math.Min(t.X/W, t.Y/H), math.Min((W-t.X-t.W)/W, (H-t.Y-t.H)/H))
}

func safeAreaCheck(in Input) Check {
	r := Rule(CheckSafeArea)
	if in.TextSkipped != "" {
		return skipped(r, in.TextSkipped)
	}
	lowest := math.Inf(1)
	for _, t := range in.Texts {
		if CountWords(t.Text) > 0 {
			lowest = math.Min(lowest, MarginPct(t, in.Width, in.Height))
		}
	}
	if math.IsInf(lowest, 1) {
		return check(r, LevelPass, "none", 0, r.Pass, nil)
	}
	lowest = math.Max(lowest, 0) // a box past the edge is 0% from it
	lvl := level(r, lowest)
	return check(r, lvl, lvl, lowest, r.Pass, nil)
}

func clutterCheck(in Input) Check {
	r := Rule(CheckClutter)
	lvl := level(r, float64(in.Elements))
	return check(r, lvl, lvl, float64(in.Elements), r.Pass, nil)
}

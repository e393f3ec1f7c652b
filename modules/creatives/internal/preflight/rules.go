// Package preflight is the pure core of the creative pre-flight (issue 29): the seven checks of a
// creative against the faces it will run on, and its score. It does no I/O: the creatives service
// turns a builder design (FromDesign) or an analysed image (the service's OCR and pixel pass) into
// an Input, and this package judges it. The thresholds, messages and hints are data (Rules), which
// `marquee internal gen-preflight` writes to the web app's preflightRules.gen.ts, so the builder's
// live checks and the server cannot disagree; testdata/golden.json holds cases both must answer
// alike. docs/creatives.md states every rule with its source.
package preflight

//go:generate sh -c "cd ../../../.. && go run ./modules/creatives/internal/preflight/gen"

// Levels of a check.
const (
	LevelPass    = "pass"
	LevelWarning = "warning"
	LevelFail    = "fail"
	LevelSkipped = "skipped"
)

// Check ids, in the order of the issue.
const (
	CheckSize            = "size"
	CheckWords           = "words"
	CheckLetterHeight    = "letter_height"
	CheckContrast        = "contrast"
	CheckNightBrightness = "night_brightness"
	CheckSafeArea        = "safe_area"
	CheckClutter         = "clutter"
)

// CheckIDs lists the checks in the order they are reported.
var CheckIDs = []string{CheckSize, CheckWords, CheckLetterHeight, CheckContrast, CheckNightBrightness, CheckSafeArea, CheckClutter}

// Fit modes of the size check: how the creative is put on the face.
const (
	FitExact       = "exact"       // the face's pixels, one for one
	FitScaled      = "scaled"      // the same aspect, resized
	FitLetterboxed = "letterboxed" // another aspect: bars on two sides
)

// Message is the text of one outcome of a check: Message says what was found, Hint how to fix
// it. Both may hold {value} and {threshold}, replaced by the check's figures (formatted by
// FormatNumber), and {fit}.
type Message struct {
	Message string `json:"message"`
	Hint    string `json:"hint"`
}

// CheckRule is one check's thresholds, weight in the score and texts. Pass and Warn are the limits
// of the pass and warning levels; whether a value must be at most or at least them is the check's
// (Higher).
type CheckRule struct {
	ID string `json:"id"`
	// Weight is the check's share of the score of 100.
	Weight int `json:"weight"`
	// Higher is true when a larger value is better (contrast, letter height): pass at value >= Pass.
	Higher bool    `json:"higher"`
	Pass   float64 `json:"pass"`
	Warn   float64 `json:"warn"`
	Unit   string  `json:"unit"`
	// Source names where the thresholds come from (docs/creatives.md quotes it).
	Source   string             `json:"source"`
	Messages map[string]Message `json:"messages"`
}

// Constants of the measures (docs/creatives.md "Measures").
const (
	// LegibilityIndex is feet of viewing distance per inch of letter height at which a sign's
	// letters are read in average conditions: the United States Sign Council's rule of thumb
	// (USSC Foundation, "Sign Legibility Rules of Thumb", LI 30 for an average viewer and sign).
	LegibilityIndex = 30.0
	// CapHeightRatio is a capital letter's height as a share of the font size: about 0.7 em in
	// the sans-serif faces of the builder (Helvetica 0.717, Arial 0.716, Roboto 0.711).
	CapHeightRatio = 0.7
	// OCRLetterRatio is a capital letter's height as a share of an OCR word box, which also holds
	// ascenders and descenders (cap 0.7 em of a 0.93 em box in the same faces).
	OCRLetterRatio = 0.75
	// SafeMarginPct is the safe area's margin on each side, in percent of that side: billboard
	// printers and digital operators ask for 5% (OAAA creative specifications, "live area").
	SafeMarginPct = 5.0
	// UpscaleWarn is the enlargement above which a scaled creative looks soft on the face.
	UpscaleWarn = 2.0
	// ClutterGrid is the longest side, in cells, of the grid on which an image's separate
	// elements are counted; ClutterMinCells the smallest blob counted as an element, and
	// ClutterDelta the colour distance (0-255 per channel, summed) from the background beyond which
	// a cell is part of an element.
	ClutterGrid     = 48
	ClutterMinCells = 3
	ClutterDelta    = 96
)

// ReferenceFace is what a creative is judged against when no face is chosen (on upload, on
// builder save): the standard 14 x 48 ft bulletin at the builder's 1400 x 400 pixels, seen from the
// arterial distance class of the locations module (250 ft at 40 mph).
var ReferenceFace = Face{ID: "", WidthFt: 48, HeightFt: 14, PixelWidth: 1400, PixelHeight: 400, DistanceClass: "arterial", ViewingDistanceFt: 250}

// Rules are every check's rule, in CheckIDs order. Weights sum to 100.
var Rules = []CheckRule{
	{ID: CheckSize, Weight: 20, Higher: false, Pass: 1, Warn: 10, Unit: "%",
		Source: "Marquee: a face shows its own pixels; an aspect within 1% scales without visible bars, beyond 10% the bars take a tenth of the face",
		Messages: map[string]Message{
			"exact":       {"The creative has exactly this face's {fit} pixels.", ""},
			"scaled":      {"The creative has this face's shape and will be scaled to {fit}.", ""},
			"upscaled":    {"The creative will be enlarged more than {threshold} times to {fit} and may look soft.", "Export the creative at the face's resolution."},
			"letterboxed": {"The creative's shape differs from the face's by {value}%: it will be letterboxed on {fit}.", "Resize the creative to the face's aspect ratio to fill the screen."},
			"fail":        {"The creative's shape differs from the face's by {value}%: bars will cover much of {fit}.", "Design the creative for the face's size (width x height in pixels)."},
		}},
	{ID: CheckWords, Weight: 15, Higher: false, Pass: 7, Warn: 10, Unit: "words",
		Source: "OAAA and outdoor companies' design guides: a billboard is read in about 5 seconds, so 7 words or fewer",
		Messages: map[string]Message{
			"pass":    {"{value} words: short enough to read at a glance.", ""},
			"none":    {"No words found.", ""},
			"warning": {"{value} words: more than the {threshold} a driver can read in passing.", "Cut the copy to {threshold} words or fewer: one message, one call to action."},
			"fail":    {"{value} words: far more than the {threshold} a driver can read in passing.", "Cut the copy to {threshold} words or fewer: one message, one call to action."},
			"skipped": {"The words could not be read: {reason}.", "Check the copy yourself: 7 words or fewer."},
		}},
	{ID: CheckLetterHeight, Weight: 20, Higher: true, Pass: 1, Warn: 0.75, Unit: "ft",
		Source: "USSC Foundation, Sign Legibility Rules of Thumb: 30 ft of legibility per inch of letter height (average conditions)",
		Messages: map[string]Message{
			"pass":    {"The smallest letters are {value} in high on the face, legible from {distance} ft: farther than the face's {viewing} ft.", ""},
			"none":    {"No letters found.", ""},
			"warning": {"The smallest letters are {value} in high, legible from {distance} ft: a little short of the face's {viewing} ft.", "Make the smallest text at least {threshold} in high on the face (larger font size)."},
			"fail":    {"The smallest letters are {value} in high, legible from only {distance} ft: the face is read from {viewing} ft.", "Make the smallest text at least {threshold} in high on the face, or remove it."},
			"skipped": {"The letter height could not be measured: {reason}.", "Keep letters large: 1 inch of height per 30 ft of viewing distance."},
		}},
	{ID: CheckContrast, Weight: 20, Higher: true, Pass: 7, Warn: 4.5, Unit: ":1",
		Source: "WCAG 2.x contrast ratio; outdoors we ask for 7:1 (WCAG 1.4.6, AAA) to pass and 4.5:1 (WCAG 1.4.3, AA) for a warning, since glare and distance lower contrast",
		Messages: map[string]Message{
			"pass":    {"The weakest text contrast is {value}:1.", ""},
			"none":    {"No text to check.", ""},
			"warning": {"The weakest text contrast is {value}:1, below {threshold}:1 for outdoor reading.", "Use dark text on a light background or the reverse; avoid colours of similar lightness."},
			"fail":    {"The weakest text contrast is {value}:1: it will not be read from the road.", "Use dark text on a light background or the reverse, with a contrast of at least {threshold}:1."},
			"skipped": {"The contrast could not be measured: {reason}.", "Use dark text on a light background or the reverse."},
		}},
	{ID: CheckNightBrightness, Weight: 10, Higher: false, Pass: 0.45, Warn: 0.65, Unit: "",
		Source: "Marquee, after the OAAA digital billboard brightness guideline (0.3 foot-candles over ambient): a mostly white creative glares at night; mean relative luminance 0.45 or less passes, above 0.65 fails",
		Messages: map[string]Message{
			"pass":    {"Mean brightness {value}: comfortable at night.", ""},
			"warning": {"Mean brightness {value}: bright at night (above {threshold}).", "Use a darker or coloured background rather than white."},
			"fail":    {"Mean brightness {value}: it will glare at night.", "Replace large white areas with a darker or coloured background."},
		}},
	{ID: CheckSafeArea, Weight: 5, Higher: true, Pass: SafeMarginPct, Warn: SafeMarginPct / 2, Unit: "%",
		Source: "OAAA creative specifications: keep copy inside the live area, 5% from each edge",
		Messages: map[string]Message{
			"pass":    {"All text is inside the safe area ({threshold}% from each edge).", ""},
			"none":    {"No text to place.", ""},
			"warning": {"Some text is {value}% from an edge, inside the {threshold}% margin.", "Move the text away from the edges."},
			"fail":    {"Some text is {value}% from an edge and may be cut off by the frame.", "Keep all text at least {threshold}% from each edge."},
			"skipped": {"The text position could not be found: {reason}.", "Keep text 5% away from each edge."},
		}},
	{ID: CheckClutter, Weight: 10, Higher: false, Pass: 4, Warn: 6, Unit: "elements",
		Source: "OAAA and outdoor companies' design guides: one message, one image, a logo; a driver takes in 3 or 4 elements",
		Messages: map[string]Message{
			"pass":    {"{value} separate elements: easy to take in.", ""},
			"warning": {"{value} separate elements: more than {threshold} compete for a glance.", "Remove or group elements: one image, one message, a logo."},
			"fail":    {"{value} separate elements: too busy to read from the road.", "Remove elements until at most {threshold} remain: one image, one message, a logo."},
		}},
}

// Rule returns the rule of a check id.
func Rule(id string) CheckRule {
	for _, r := range Rules {
		if r.ID == id {
			return r
		}
	}
	panic("preflight: unknown check " + id)
}

// LevelCredit is what a level earns of a check's weight: a warning half, a skipped check is left
// out of the score (the others are scaled to 100).
var LevelCredit = map[string]float64{LevelPass: 1, LevelWarning: 0.5, LevelFail: 0}

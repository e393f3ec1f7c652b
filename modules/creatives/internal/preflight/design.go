package preflight

import "math"

// Element kinds of a builder design.
const (
	ElementText  = "text"
	ElementShape = "shape"
	ElementImage = "image"
)

// Element is one element of a builder design, in the order drawn (later on top). Fill is the
// text's colour or the shape's fill (#rrggbb); FontSize the text's size in design pixels.
type Element struct {
	Kind       string  `json:"kind"`
	X          float64 `json:"x"`
	Y          float64 `json:"y"`
	Width      float64 `json:"width"`
	Height     float64 `json:"height"`
	Text       string  `json:"text,omitempty"`
	FontSize   float64 `json:"font_size,omitempty"`
	FontFamily string  `json:"font_family,omitempty"`
	Fill       string  `json:"fill,omitempty"`
}

// Design is what the Ad Design Tool saves beside its PNG: the canvas and its elements, so the text
// checks are exact, with no OCR.
type Design struct {
	Width      int       `json:"width"`
	Height     int       `json:"height"`
	Background string    `json:"background"`
	Elements   []Element `json:"elements"`
}

// colourOr parses a colour, black when it is not one (the service refuses such designs first).
func colourOr(s string) RGB {
	c, _ := ParseHex(s)
	return c
}

// FromDesign turns a builder design into the checks' input:
//   - each text with a word is a Text: its box, capital height FontSize x CapHeightRatio, and its
//     contrast with the topmost shape drawn before it that holds the centre of its box (else the
//     background);
//   - the mean luminance is the background's, changed by each shape's luminance over the share of
//     the canvas it covers (clipped to the canvas; overlaps are not subtracted; clamped to 0-1).
//     Texts and images are left out: letters cover little, and an image's pixels are not known here;
//   - the elements are every shape and image, and every text with a word.
func FromDesign(d Design) Input {
	in := Input{Width: d.Width, Height: d.Height, Texts: []Text{}}
	bg := colourOr(d.Background)
	bgLum := Luminance(bg)
	area := float64(d.Width) * float64(d.Height)
	lum := bgLum
	for i, e := range d.Elements {
		switch e.Kind {
		case ElementText:
			if CountWords(e.Text) == 0 {
				continue
			}
			in.Elements++
			behind := bg
			cx, cy := e.X+e.Width/2, e.Y+e.Height/2
			for j := i - 1; j >= 0; j-- {
				s := d.Elements[j]
				if s.Kind == ElementShape && cx >= s.X && cx <= s.X+s.Width && cy >= s.Y && cy <= s.Y+s.Height {
					behind = colourOr(s.Fill)
					break
				}
			}
			in.Texts = append(in.Texts, Text{Text: e.Text, X: e.X, Y: e.Y, W: e.Width, H: e.Height,
				LetterHeightPx: e.FontSize * CapHeightRatio, Contrast: ContrastRatio(colourOr(e.Fill), behind)})
		case ElementShape:
			in.Elements++
			if area > 0 {
				w := math.Max(0, math.Min(e.X+e.Width, float64(d.Width))-math.Max(e.X, 0))
				h := math.Max(0, math.Min(e.Y+e.Height, float64(d.Height))-math.Max(e.Y, 0))
				lum += (Luminance(colourOr(e.Fill)) - bgLum) * w * h / area
			}
		case ElementImage:
			in.Elements++
		}
	}
	in.MeanLuminance = math.Min(1, math.Max(0, lum))
	return in
}

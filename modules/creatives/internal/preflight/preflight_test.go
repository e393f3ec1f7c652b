package preflight

import (
	"bytes"
	"encoding/json"
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.json's expected answers from the Go implementation")

// goldenCase is one case of testdata/golden.json: a builder design on some faces and the levels and
// scores both implementations must answer.
type goldenCase struct {
	Name     string   `json:"name"`
	Design   Design   `json:"design"`
	Faces    []Face   `json:"faces"`
	Expected expected `json:"expected"`
}

type expected struct {
	Score  int                `json:"score"`
	Levels map[string]string  `json:"levels"`
	Values map[string]float64 `json:"values"`
	Faces  []expectedFace     `json:"faces"`
}

type expectedFace struct {
	FaceID string            `json:"face_id"`
	Score  int               `json:"score"`
	Levels map[string]string `json:"levels"`
}

type goldenFile struct {
	Comment string       `json:"comment"`
	Cases   []goldenCase `json:"cases"`
}

func answer(r Report) expected {
	e := expected{Score: r.Score, Levels: map[string]string{}, Values: map[string]float64{}}
	for _, c := range r.Checks {
		e.Levels[c.ID], e.Values[c.ID] = c.Level, c.Value
	}
	for _, f := range r.Faces {
		ef := expectedFace{FaceID: f.FaceID, Score: f.Score, Levels: map[string]string{}}
		for _, c := range f.Checks {
			ef.Levels[c.ID] = c.Level
		}
		e.Faces = append(e.Faces, ef)
	}
	return e
}

// The golden cases are the contract between this package and the builder's TypeScript checks:
// the same design on the same faces gives the same levels, values and scores.
func TestGoldenCases(t *testing.T) {
	path := filepath.Join("testdata", "golden.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var g goldenFile
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Cases) < 8 {
		t.Fatalf("only %d golden cases", len(g.Cases))
	}
	for i, c := range g.Cases {
		got := answer(Evaluate(FromDesign(c.Design), c.Faces))
		if *update {
			g.Cases[i].Expected = got
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			if got.Score != c.Expected.Score {
				t.Errorf("score %d, want %d", got.Score, c.Expected.Score)
			}
			for id, want := range c.Expected.Levels {
				if got.Levels[id] != want {
					t.Errorf("%s: %s, want %s", id, got.Levels[id], want)
				}
				if math.Abs(got.Values[id]-c.Expected.Values[id]) > 0.011 {
					t.Errorf("%s value %v, want %v", id, got.Values[id], c.Expected.Values[id])
				}
			}
			if len(got.Faces) != len(c.Expected.Faces) {
				t.Fatalf("%d faces, want %d", len(got.Faces), len(c.Expected.Faces))
			}
			for j, f := range c.Expected.Faces {
				if got.Faces[j].Score != f.Score {
					t.Errorf("face %s: score %d, want %d", f.FaceID, got.Faces[j].Score, f.Score)
				}
			}
		})
	}
	if *update {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetIndent("", "  ")
		if err := enc.Encode(g); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Every check passes on one golden case and fails on another, so each rule is exercised both ways.
func TestGoldenCasesCoverEveryOutcome(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g goldenFile
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, c := range g.Cases {
		for id, lvl := range c.Expected.Levels {
			seen[id+"/"+lvl] = true
		}
	}
	for _, id := range CheckIDs {
		for _, lvl := range []string{LevelPass, LevelWarning, LevelFail} {
			if !seen[id+"/"+lvl] {
				t.Errorf("no golden case where %s is %s", id, lvl)
			}
		}
	}
}

// The web app's copy of the rules is what TypeScript() writes now.
func TestGeneratedTypeScriptIsFresh(t *testing.T) {
	got, err := os.ReadFile(filepath.Join("..", "..", "..", "..", TSPath))
	if err != nil {
		t.Fatalf("%v: run go run ./modules/creatives/internal/preflight/gen", err)
	}
	if want := append(TypeScript(), '\n'); !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: run go run ./modules/creatives/internal/preflight/gen and commit", TSPath)
	}
}

func TestWeightsSumTo100(t *testing.T) {
	sum := 0
	for _, r := range Rules {
		sum += r.Weight
	}
	if sum != 100 || len(Rules) != len(CheckIDs) {
		t.Fatalf("weights sum to %d over %d rules", sum, len(Rules))
	}
}

// WCAG 2.x's own figures: black on white is 21:1, a colour on itself 1:1, #777 on white 4.48:1.
func TestContrastRatioMatchesWCAG(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want float64
	}{{"#000000", "#ffffff", 21}, {"#336699", "#336699", 1}, {"#777777", "#ffffff", 4.48}, {"#fff", "#0000ff", 8.59}} {
		a, _ := ParseHex(c.a)
		b, _ := ParseHex(c.b)
		if got := Round2(ContrastRatio(a, b)); math.Abs(got-c.want) > 0.01 {
			t.Errorf("%s on %s: %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

func TestCountWords(t *testing.T) {
	for s, want := range map[string]int{"": 0, "Fresh coffee - Exit 12": 4, " & ": 0, "Hello\nworld": 2, "50% off!": 2} {
		if got := CountWords(s); got != want {
			t.Errorf("%q: %d, want %d", s, got, want)
		}
	}
}

// A skipped text check leaves the score to the checks that ran.
func TestSkippedTextChecksLeaveTheScoreToTheOthers(t *testing.T) {
	r := Evaluate(Input{Width: 1400, Height: 400, TextSkipped: "OCR is not installed", MeanLuminance: 0.1, Elements: 2}, nil)
	for _, c := range r.Checks {
		switch c.ID {
		case CheckWords, CheckLetterHeight, CheckContrast, CheckSafeArea:
			if c.Level != LevelSkipped || c.Message != "The "+map[string]string{CheckWords: "words could not be read", CheckLetterHeight: "letter height could not be measured", CheckContrast: "contrast could not be measured", CheckSafeArea: "text position could not be found"}[c.ID]+": OCR is not installed." {
				t.Errorf("%s: %s %q", c.ID, c.Level, c.Message)
			}
		default:
			if c.Level != LevelPass {
				t.Errorf("%s: %s", c.ID, c.Level)
			}
		}
	}
	if r.Score != 100 {
		t.Fatalf("score %d", r.Score)
	}
}

// Any design on any face gives seven checks per face with known levels and a score of 0 to 100:
// odd sizes, empty texts, zero-sized faces and colours that do not parse included.
func TestEvaluateIsTotal(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 1))
	colours := []string{"#000", "#ffffff", "#0b3d91", "nope", "", "#12345"}
	for range 2000 {
		d := Design{Width: rng.IntN(3000) - 10, Height: rng.IntN(3000) - 10, Background: colours[rng.IntN(len(colours))]}
		for range rng.IntN(12) {
			kinds := []string{ElementText, ElementShape, ElementImage, "other"}
			d.Elements = append(d.Elements, Element{Kind: kinds[rng.IntN(len(kinds))], X: rng.Float64()*3000 - 500, Y: rng.Float64()*1000 - 200,
				Width: rng.Float64() * 2000, Height: rng.Float64() * 800, Text: []string{"", "A", "Big sale now", " - "}[rng.IntN(4)],
				FontSize: rng.Float64() * 300, Fill: colours[rng.IntN(len(colours))]})
		}
		faces := []Face{{ID: "a", WidthFt: rng.Float64() * 60, HeightFt: rng.Float64() * 20, PixelWidth: rng.IntN(3000), PixelHeight: rng.IntN(1000), ViewingDistanceFt: rng.Float64() * 600}}
		r := Evaluate(FromDesign(d), faces)
		if r.Score < 0 || r.Score > 100 || len(r.Checks) != 7 || len(r.Faces) != 1 {
			t.Fatalf("%+v on %+v: %+v", d, faces, r)
		}
		for _, c := range r.Checks {
			if _, ok := levelRank[c.Level]; !ok || c.Message == "" || math.IsNaN(c.Value) || math.IsInf(c.Value, 0) {
				t.Fatalf("%+v on %+v: check %+v", d, faces, c)
			}
		}
	}
}

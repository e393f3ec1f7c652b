package importfmt

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

func utc(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t.UTC()
}

func parseFile(t *testing.T, name string, f Format, o Options) *Result {
	t.Helper()
	file, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	res, err := Parse(file, f, o)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

func checkRows(t *testing.T, name string, got, want []Row) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows, want %d: %+v", name, len(got), len(want), got)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Line != w.Line || g.Display != w.Display || g.Media != w.Media || g.Kind != w.Kind ||
			!g.From.Equal(w.From) || !g.To.Equal(w.To) || g.Count != w.Count || g.Duration != w.Duration {
			t.Errorf("%s row %d:\n got %+v\nwant %+v", name, i, g, w)
		}
	}
}

func checkRefused(t *testing.T, name string, got []Refusal, want map[int]string) {
	t.Helper()
	lines := map[int]string{}
	for _, r := range got {
		lines[r.Line] = r.Reason
	}
	for line, part := range want {
		if reason, ok := lines[line]; !ok || !strings.Contains(reason, part) {
			t.Errorf("%s line %d: refused %v %q, want a reason with %q", name, line, ok, reason, part)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%s: %d refusals, want %d: %+v", name, len(got), len(want), got)
	}
}

// The Xibo CMS export, as every version since 2.1 writes it (header variants of
// lib/Controller/Stats.php), and as Excel saves it again (BOM, CRLF). Dates are in the CMS's zone.
func TestXiboExports(t *testing.T) {
	ny, _ := time.LoadLocation("America/New_York")
	want := []Row{
		{Line: 2, Display: "Main St & 5th - North", Media: "fall-sale-1080x1920.png", Kind: "media",
			From: utc("2026-11-23T11:00:08Z"), To: utc("2026-11-23T11:00:16Z"), Count: 1, Duration: 8 * time.Second},
		{Line: 3, Display: "Main St & 5th - North", Media: `Dental, "smile" v2.jpg`, Kind: "media",
			From: utc("2026-11-23T11:00:16Z"), To: utc("2026-11-23T11:00:24Z"), Count: 1, Duration: 8 * time.Second},
		{Line: 4, Display: "Main St & 5th - North", Media: "Main Street North", Kind: "layout",
			From: utc("2026-11-23T11:00:00Z"), To: utc("2026-11-23T12:00:00Z"), Count: 450, Duration: time.Hour},
		{Line: 5, Display: "Route 9 South", Media: "Weather", Kind: "widget",
			From: utc("2026-11-23T05:00:00Z"), To: utc("2026-11-24T05:00:00Z"), Count: 900, Duration: 2 * time.Hour},
	}
	for _, name := range []string{"xibo-4.x.csv", "xibo-2.3.csv", "xibo-2.1.csv", "xibo-excel-bom-crlf.csv"} {
		t.Run(name, func(t *testing.T) {
			for _, f := range []Format{FormatAuto, FormatXibo} {
				res := parseFile(t, name, f, Options{Location: ny})
				if res.Format != FormatXibo || len(res.Refused) != 0 {
					t.Errorf("format %q, refused %+v", res.Format, res.Refused)
				}
				checkRows(t, name, res.Rows, want)
			}
		})
	}
}

// Xibo's /api/stats fields, with ids: the id is the reference, not the name.
func TestXiboAPIFieldsUseIDs(t *testing.T) {
	ny, _ := time.LoadLocation("America/New_York")
	res := parseFile(t, "xibo-api-ids.csv", FormatAuto, Options{Location: ny})
	checkRows(t, "xibo-api-ids.csv", res.Rows, []Row{
		{Line: 2, Display: "12", Media: "4411", Kind: "media",
			From: utc("2026-11-23T11:00:08Z"), To: utc("2026-11-23T11:00:16Z"), Count: 1, Duration: 8 * time.Second},
		{Line: 3, Display: "12", Media: "301", Kind: "layout",
			From: utc("2026-11-23T11:00:00Z"), To: utc("2026-11-23T12:00:00Z"), Count: 450, Duration: time.Hour},
	})
}

func TestXiboRefusals(t *testing.T) {
	res := parseFile(t, "xibo-refusals.csv", FormatXibo, Options{})
	if len(res.Rows) != 2 || res.Rows[0].Line != 2 || res.Rows[1].Line != 16 {
		t.Errorf("accepted %+v, want lines 2 and 16", res.Rows)
	}
	if !res.Rows[0].From.Equal(utc("2026-11-23T06:00:08Z")) {
		t.Errorf("without a Location, dates are UTC: %s", res.Rows[0].From)
	}
	checkRefused(t, "xibo-refusals.csv", res.Refused, map[int]string{
		3:  "not a play",
		4:  "deleted this display",
		5:  "control character",
		6:  "Count must be at least 1",
		7:  "FromDT",
		8:  "ends before it starts",
		9:  `Type "audio"`,
		10: "Duration",
		11: "Media is empty",
		12: "longer than 255",
		13: "has 3 fields, the header has 12",
		14: "control character",
	})
}

func TestGenericCSV(t *testing.T) {
	res := parseFile(t, "generic.csv", FormatAuto, Options{})
	if res.Format != FormatGeneric || len(res.Refused) != 0 {
		t.Errorf("format %q, refused %+v", res.Format, res.Refused)
	}
	checkRows(t, "generic.csv", res.Rows, []Row{
		{Line: 2, Display: "DSP-0012", Media: "CR-fall-sale", Kind: "media",
			From: utc("2026-11-23T11:00:08Z"), To: utc("2026-11-23T11:00:16Z"), Count: 1, Duration: 8 * time.Second},
		{Line: 3, Display: "DSP-0012", Media: "CR-dental-v2", Kind: "media",
			From: utc("2026-11-23T11:00:16Z"), To: utc("2026-11-23T11:04:16.5Z"), Count: 30, Duration: 240500 * time.Millisecond},
		{Line: 4, Display: "DSP 0013, east", Media: "CR-fall-sale", Kind: "media",
			From: utc("2026-11-24T00:00:00Z"), To: utc("2026-11-24T00:00:16Z"), Count: 2, Duration: 16 * time.Second},
	})

	res = parseFile(t, "generic-refusals.csv", FormatGeneric, Options{})
	checkRows(t, "generic-refusals.csv", res.Rows, []Row{
		{Line: 2, Display: "DSP-0012", Media: "CR-fall-sale", Kind: "media",
			From: utc("2026-11-23T06:00:00Z"), To: utc("2026-11-23T07:00:00Z"), Count: 450, Duration: time.Hour},
		{Line: 9, Display: "DSP-0012", Media: "CR-fall-sale", Kind: "media",
			From: utc("2026-11-23T06:00:08Z"), To: utc("2026-11-23T06:00:16Z"), Count: 1, Duration: 8 * time.Second},
	})
	checkRefused(t, "generic-refusals.csv", res.Refused, map[int]string{
		3: "RFC 3339",
		4: "display_id is empty",
		5: "play_count must be at least 1",
		6: "control character",
		7: "duration_s",
		8: "ends before it starts",
	})
}

func TestWholeFileRefusals(t *testing.T) {
	genericRow := "DSP-1,CR-1,2026-11-23T06:00:08Z,8,1\n"
	header := "display_id,media_id,started_at,duration_s,play_count\n"
	for _, tc := range []struct {
		name string
		body string
		f    Format
		o    Options
		want error
		msg  string
	}{
		{"empty", "", FormatAuto, Options{}, ErrHeader, "empty"},
		{"unknown header", "a,b,c\n1,2,3\n", FormatAuto, Options{}, ErrHeader, "generic CSV"},
		{"generic with a misspelt column", "display_id,media_id,started_at,duration_s,play_count,end_at\n", FormatGeneric, Options{}, ErrHeader, `"end_at"`},
		{"generic missing a column", "display_id,media_id,started_at,duration_s\n", FormatGeneric, Options{}, ErrHeader, "play_count"},
		{"generic column twice", "display_id,media_id,started_at,duration_s,play_count,play_count\n", FormatGeneric, Options{}, ErrHeader, "twice"},
		{"xibo missing Count", "Type,FromDT,ToDT,Layout,Display,Media,Tag,Duration\n", FormatXibo, Options{}, ErrHeader, "Count"},
		{"a generic file read as Xibo", header + genericRow, FormatXibo, Options{}, ErrHeader, "Type"},
		{"UTF-16", "\xff\xfed\x00i\x00", FormatAuto, Options{}, ErrEncoding, "UTF-16"},
		{"one row over the limit", header + strings.Repeat(genericRow, 11), FormatAuto, Options{MaxRows: 10}, ErrTooManyRows, "at most 10 rows"},
		{"one byte over the limit", header + genericRow, FormatAuto, Options{MaxBytes: int64(len(header+genericRow)) - 1}, ErrTooLarge, "bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Parse(strings.NewReader(tc.body), tc.f, tc.o)
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("Parse: %v (%v), want %v with %q", err, res, tc.want, tc.msg)
			}
		})
	}
	// At the limits exactly, the file is whole and parses.
	body := header + strings.Repeat(genericRow, 10)
	res, err := Parse(strings.NewReader(body), FormatAuto, Options{MaxRows: 10, MaxBytes: int64(len(body))})
	if err != nil || len(res.Rows) != 10 {
		t.Errorf("at the limits: %v, %d rows", err, len(res.Rows))
	}
}

// FuzzParse: no input panics, none yields more rows than the limit, and every accepted row holds
// single-line references and a count and interval within bounds.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"xibo-4.x.csv", "xibo-refusals.csv", "generic.csv", "generic-refusals.csv", "xibo-api-ids.csv"} {
		raw, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		res, err := Parse(bytes.NewReader(raw), FormatAuto, Options{MaxRows: 50, MaxBytes: 8 << 10})
		if err != nil {
			return
		}
		if len(res.Rows)+len(res.Refused) > 50 {
			t.Fatalf("%d rows and refusals over the limit", len(res.Rows)+len(res.Refused))
		}
		for _, r := range res.Rows {
			for _, v := range []string{r.Display, r.Media} {
				if _, reason := ref("x", v); reason != "" || v == "" {
					t.Fatalf("row %+v: %q %s", r, v, reason)
				}
			}
			if r.Count < 1 || r.To.Before(r.From) || r.Duration < 0 || r.Line < 2 {
				t.Fatalf("row out of bounds: %+v", r)
			}
		}
	})
}

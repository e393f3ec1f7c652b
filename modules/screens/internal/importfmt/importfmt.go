// Package importfmt parses the proof-of-play exports a network can upload instead of running
// Marquee's player (issue 28, "Imports from existing signage software"): Xibo CMS's proof-of-play
// statistics export, and Marquee's documented generic CSV (docs/screens-import.md). It is a pure
// core: it reads one io.Reader and returns rows or refusals; mapping the CMS's display and media
// references to faces and creatives, idempotence and storage are the screens module's.
//
// Every row either parses to a Row or is refused with its line number and a reason; only a file
// that cannot be read as a whole (over the byte or row limit, no recognisable header, UTF-16) is
// an error.
package importfmt

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Format names an export format.
type Format string

const (
	// FormatAuto picks the format from the header row.
	FormatAuto Format = ""
	// FormatXibo is Xibo CMS's proof-of-play statistics export (Reporting > Proof of Play >
	// Export, the StatsController's CSV), or the same fields as its /api/stats answer names them.
	FormatXibo Format = "xibo"
	// FormatGeneric is Marquee's generic CSV: display_id, media_id, started_at, duration_s,
	// play_count (and optionally ended_at).
	FormatGeneric Format = "generic"
)

// Row is one accepted line of an export: Count plays of Media on Display between From and To.
type Row struct {
	Line     int       // the line of the file where the record starts (the header is line 1)
	Display  string    // the CMS's reference of the display (an id, or Xibo's display name)
	Media    string    // the CMS's reference of what played (an id, or Xibo's media/layout name)
	Kind     string    // what Media names: "media", "layout" or "widget" (Xibo's type); generic rows are "media"
	From     time.Time // UTC
	To       time.Time // UTC, not before From
	Count    int       // plays in the row, at least 1
	Duration time.Duration
}

// Refusal is a line that was not accepted, and why.
type Refusal struct {
	Line   int
	Reason string
}

// Result is a parsed file.
type Result struct {
	Format  Format
	Rows    []Row
	Refused []Refusal
}

// Options bound and configure a parse.
type Options struct {
	// Location is the zone of dates written without one. Xibo writes "2006-01-02 15:04:05" in the
	// CMS's default time zone (or in UTC when the export was asked for in UTC). Default UTC.
	Location *time.Location
	MaxRows  int   // records after the header; default DefaultMaxRows
	MaxBytes int64 // default DefaultMaxBytes
}

// Defaults: a week of hourly Xibo stats for 500 displays × 20 media is 1.7 M rows; an upload is
// meant to be a day or a week of a few screens, so the bounds are set well below the server's
// memory and well above a real file's size.
const (
	DefaultMaxRows  = 200_000
	DefaultMaxBytes = 50 << 20
	maxRefLen       = 255 // runes in a display or media reference
	maxRowCount     = 1_000_000
	maxSpan         = 31 * 24 * time.Hour // Xibo's coarsest aggregation is a day; a month is generous
)

// File-level errors. Each is wrapped in a message that states the limit or the missing column.
var (
	ErrTooLarge    = errors.New("the file is too large")
	ErrTooManyRows = errors.New("the file has too many rows")
	ErrHeader      = errors.New("the header row is not one of a known export")
	ErrEncoding    = errors.New("the file is not UTF-8 text")
)

// Parse reads an export of format f (or, with FormatAuto, the format its header names).
func Parse(r io.Reader, f Format, o Options) (*Result, error) {
	if o.Location == nil {
		o.Location = time.UTC
	}
	if o.MaxRows <= 0 {
		o.MaxRows = DefaultMaxRows
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	br := bufio.NewReader(&limitReader{r: r, left: o.MaxBytes})
	if head, _ := br.Peek(3); bytes.HasPrefix(head, []byte("\xef\xbb\xbf")) {
		_, _ = br.Discard(3) // Excel and Windows tools write a UTF-8 byte-order mark
	} else if bytes.HasPrefix(head, []byte("\xff\xfe")) || bytes.HasPrefix(head, []byte("\xfe\xff")) {
		return nil, fmt.Errorf("%w: it is UTF-16; save it as CSV UTF-8", ErrEncoding)
	}
	cr := csv.NewReader(br)
	cr.FieldsPerRecord = -1 // a short or long row is refused on its own, not the whole file
	cr.ReuseRecord = true
	header, err := cr.Read()
	switch {
	case errors.Is(err, io.EOF):
		return nil, fmt.Errorf("%w: the file is empty", ErrHeader)
	case err != nil:
		return nil, fileError(err, o)
	}
	cols := map[string]int{}
	for i, h := range header {
		cols[normal(h)] = i
	}
	if f == FormatAuto {
		f = detect(cols)
	}
	var p rowParser
	switch f {
	case FormatXibo:
		p, err = newXibo(cols, o.Location)
	case FormatGeneric:
		p, err = newGeneric(cols, header)
	default:
		err = fmt.Errorf("%w: expected Xibo's proof-of-play export (Type, FromDT, ToDT, Display, Media, Duration, Count) or the generic CSV (display_id, media_id, started_at, duration_s, play_count)", ErrHeader)
	}
	if err != nil {
		return nil, err
	}
	res := &Result{Format: f}
	for n := 0; ; n++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return res, nil
		}
		if n >= o.MaxRows {
			return nil, fmt.Errorf("%w: at most %d rows after the header; split the export by date", ErrTooManyRows, o.MaxRows)
		}
		if err != nil {
			var pe *csv.ParseError
			if !errors.As(err, &pe) {
				return nil, fileError(err, o)
			}
			res.Refused = append(res.Refused, Refusal{Line: pe.StartLine, Reason: "not valid CSV: " + pe.Err.Error()})
			continue
		}
		line, _ := cr.FieldPos(0) // only after a good read: FieldPos panics on a failed one
		if len(rec) != len(header) {
			res.Refused = append(res.Refused, Refusal{Line: line, Reason: fmt.Sprintf("has %d fields, the header has %d", len(rec), len(header))})
			continue
		}
		row, reason := p.parse(rec)
		if reason != "" {
			res.Refused = append(res.Refused, Refusal{Line: line, Reason: reason})
			continue
		}
		row.Line = line
		res.Rows = append(res.Rows, row)
	}
}

type rowParser interface {
	parse(rec []string) (Row, string)
}

func fileError(err error, o Options) error {
	if errors.Is(err, ErrTooLarge) {
		return fmt.Errorf("%w: at most %d bytes; split the export by date", ErrTooLarge, o.MaxBytes)
	}
	return err
}

// limitReader fails with ErrTooLarge past its limit (io.LimitReader would end the file quietly
// and a truncated export would import as if it were whole).
type limitReader struct {
	r    io.Reader
	left int64
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.left <= 0 {
		// One byte more tells a file of exactly the limit from a larger one.
		var one [1]byte
		n, err := l.r.Read(one[:])
		if n > 0 {
			return 0, ErrTooLarge
		}
		return 0, err
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

// normal is a header cell as matched: trimmed and lower case ("Stat Date" -> "stat date").
func normal(h string) string { return strings.ToLower(strings.TrimSpace(h)) }

func detect(cols map[string]int) Format {
	if _, ok := cols["display_id"]; ok {
		return FormatGeneric
	}
	_, from := cols["fromdt"]
	_, start := cols["start"]
	if _, ok := cols["type"]; ok && (from || start) {
		return FormatXibo
	}
	return "unknown"
}

// ref checks a display or media reference: present, at most 255 characters, UTF-8, one line
// without control characters (the rule of httpx.IsSingleLine: C0, DEL, C1, U+2028, U+2029). It
// returns the trimmed value or a reason.
func ref(field, v string) (string, string) {
	v = strings.TrimSpace(v)
	switch {
	case v == "":
		return "", field + " is empty"
	case !utf8.ValidString(v):
		return "", field + " is not UTF-8 text"
	case utf8.RuneCountInString(v) > maxRefLen:
		return "", fmt.Sprintf("%s is longer than %d characters", field, maxRefLen)
	}
	for _, r := range v {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return "", field + " holds a control character"
		}
	}
	return v, ""
}

// span checks the interval of a row.
func span(from, to time.Time) string {
	switch {
	case to.Before(from):
		return "ends before it starts"
	case to.Sub(from) > maxSpan:
		return "spans more than 31 days"
	}
	return ""
}

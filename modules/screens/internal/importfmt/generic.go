package importfmt

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// generic parses Marquee's generic proof-of-play CSV (docs/screens-import.md):
//
//	display_id,media_id,started_at,duration_s,play_count[,ended_at]
//
// in any column order. started_at and ended_at are RFC 3339 with a zone; duration_s is the
// seconds played over the row's play_count plays; ended_at defaults to started_at + duration_s.
// A column the format does not define is refused, so that a misspelt optional column does not
// import silently wrong.
type generic struct {
	display, media, started, duration, count, ended int
}

var genericColumns = []string{"display_id", "media_id", "started_at", "duration_s", "play_count", "ended_at"}

func newGeneric(cols map[string]int, header []string) (*generic, error) {
	known := map[string]bool{}
	for _, c := range genericColumns {
		known[c] = true
	}
	var unknown, missing []string
	for _, h := range header {
		if !known[normal(h)] {
			unknown = append(unknown, fmt.Sprintf("%q", truncate(h)))
		}
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("%w: the generic CSV has no column %s (its columns: %s)", ErrHeader, strings.Join(unknown, ", "), strings.Join(genericColumns, ", "))
	}
	if len(cols) != len(header) {
		return nil, fmt.Errorf("%w: a column is named twice", ErrHeader)
	}
	g := &generic{ended: -1}
	for _, c := range []struct {
		name string
		dst  *int
	}{{"display_id", &g.display}, {"media_id", &g.media}, {"started_at", &g.started}, {"duration_s", &g.duration}, {"play_count", &g.count}} {
		i, ok := cols[c.name]
		if !ok {
			missing = append(missing, c.name)
		}
		*c.dst = i
	}
	if i, ok := cols["ended_at"]; ok {
		g.ended = i
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%w: the generic CSV needs the column %s", ErrHeader, strings.Join(missing, ", "))
	}
	return g, nil
}

func (g *generic) parse(rec []string) (Row, string) {
	row := Row{Kind: "media"}
	var reason string
	if row.Display, reason = ref("display_id", rec[g.display]); reason != "" {
		return row, reason
	}
	if row.Media, reason = ref("media_id", rec[g.media]); reason != "" {
		return row, reason
	}
	started := strings.TrimSpace(rec[g.started])
	t, err := time.Parse(time.RFC3339, started)
	if err != nil {
		return row, fmt.Sprintf("started_at %q is not an RFC 3339 time with a zone, like 2026-11-23T06:00:08Z", truncate(started))
	}
	row.From = t.UTC()
	dur := strings.TrimSpace(rec[g.duration])
	secs, err := strconv.ParseFloat(dur, 64)
	if err != nil || math.IsNaN(secs) || secs < 0 || secs > maxSpan.Seconds() {
		return row, fmt.Sprintf("duration_s %q is not a number of seconds up to 31 days", truncate(dur))
	}
	row.Duration = time.Duration(math.Round(secs*1000)) * time.Millisecond
	if row.Count, reason = count("play_count", strings.TrimSpace(rec[g.count])); reason != "" {
		return row, reason
	}
	row.To = row.From.Add(row.Duration)
	if g.ended >= 0 {
		if ended := strings.TrimSpace(rec[g.ended]); ended != "" {
			t, err := time.Parse(time.RFC3339, ended)
			if err != nil {
				return row, fmt.Sprintf("ended_at %q is not an RFC 3339 time with a zone", truncate(ended))
			}
			row.To = t.UTC()
		}
	}
	if reason = span(row.From, row.To); reason != "" {
		return row, reason
	}
	return row, ""
}

package importfmt

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// xibo parses Xibo CMS's proof-of-play export. The CMS (lib/Controller/Stats.php, export) writes,
// with PHP's fputcsv:
//
//	"Stat Date",Type,FromDT,ToDT,Layout,Campaign,Display,Media,Tag,Duration,Count,Engagements  (3.3.1 and later)
//	"Stat Date",Type,FromDT,ToDT,Layout,Display,Media,Tag,Duration,Count,Engagements           (2.3 to 3.3.0)
//	Type,FromDT,ToDT,Layout,Display,Media,Tag,Duration,Count                                 (2.1, 2.2)
//
// Display, Layout and Media are names; dates are "Y-m-d H:i:s" in the CMS's zone; Duration is the
// seconds played over the row's Count plays; Type is "layout", "media", "widget" or "event". The
// same rows as Xibo's /api/stats answers them (displayId, layoutId, mediaId, widgetId, start, end,
// numberPlays) are accepted too, and where an id column is present and filled, the id is the
// reference instead of the name (ids survive a rename in the CMS).
type xibo struct {
	loc                                    *time.Location
	typ, from, to, duration, count         int
	display, layout, media                 int // name columns (-1 when absent)
	displayID, layoutID, mediaID, widgetID int // id columns (-1 when absent)
}

func newXibo(cols map[string]int, loc *time.Location) (*xibo, error) {
	col := func(names ...string) int {
		for _, n := range names {
			if i, ok := cols[n]; ok {
				return i
			}
		}
		return -1
	}
	x := &xibo{loc: loc,
		typ: col("type"), from: col("fromdt", "start"), to: col("todt", "end"),
		duration: col("duration"), count: col("count", "numberplays"),
		display: col("display"), layout: col("layout"), media: col("media"),
		displayID: col("displayid"), layoutID: col("layoutid"), mediaID: col("mediaid"), widgetID: col("widgetid"),
	}
	var missing []string
	for name, i := range map[string]int{"Type": x.typ, "FromDT": x.from, "ToDT": x.to, "Duration": x.duration, "Count": x.count} {
		if i < 0 {
			missing = append(missing, name)
		}
	}
	if x.display < 0 && x.displayID < 0 {
		missing = append(missing, "Display")
	}
	if x.media < 0 && x.layout < 0 && x.mediaID < 0 && x.layoutID < 0 && x.widgetID < 0 {
		missing = append(missing, "Media or Layout")
	}
	if len(missing) > 0 {
		sortStrings(missing)
		return nil, fmt.Errorf("%w: Xibo's proof-of-play export has no column %s", ErrHeader, strings.Join(missing, ", "))
	}
	return x, nil
}

// xiboNotFound is what the export writes for a display or layout the CMS has deleted.
const xiboNotFound = "Not Found"

func (x *xibo) parse(rec []string) (Row, string) {
	get := func(i int) string {
		if i < 0 {
			return ""
		}
		return strings.TrimSpace(rec[i])
	}
	var row Row
	row.Kind = strings.ToLower(get(x.typ))
	// pick is the id when the id column is there and filled, else the name.
	pick := func(idCol, nameCol int) (string, bool) {
		if v := get(idCol); v != "" && v != "0" {
			return v, true
		}
		return get(nameCol), false
	}
	var mediaCol, mediaID int
	switch row.Kind {
	case "media":
		mediaID, mediaCol = x.mediaID, x.media
	case "layout":
		mediaID, mediaCol = x.layoutID, x.layout
	case "widget":
		mediaID, mediaCol = x.widgetID, x.media
	case "event":
		return row, "type event is an interactive event, not a play"
	case "":
		return row, "Type is empty"
	default:
		return row, fmt.Sprintf("Type %q is not layout, media or widget", truncate(row.Kind))
	}
	display, byID := pick(x.displayID, x.display)
	if !byID && display == xiboNotFound {
		return row, "the CMS has deleted this display (exported as \"Not Found\")"
	}
	var reason string
	if row.Display, reason = ref("Display", display); reason != "" {
		return row, reason
	}
	media, byID := pick(mediaID, mediaCol)
	if !byID && media == xiboNotFound && row.Kind == "layout" {
		return row, "the CMS has deleted this layout (exported as \"Not Found\")"
	}
	if row.Media, reason = ref(kindField(row.Kind), media); reason != "" {
		return row, reason
	}
	var err error
	if row.From, err = xiboTime(get(x.from), x.loc); err != nil {
		return row, "FromDT " + err.Error()
	}
	if row.To, err = xiboTime(get(x.to), x.loc); err != nil {
		return row, "ToDT " + err.Error()
	}
	if reason = span(row.From, row.To); reason != "" {
		return row, reason
	}
	if row.Count, reason = count("Count", get(x.count)); reason != "" {
		return row, reason
	}
	secs, err := strconv.ParseInt(get(x.duration), 10, 64)
	if err != nil || secs < 0 || secs > int64(maxSpan/time.Second) {
		return row, fmt.Sprintf("Duration %q is not a whole number of seconds up to 31 days", truncate(get(x.duration)))
	}
	row.Duration = time.Duration(secs) * time.Second
	return row, ""
}

func kindField(kind string) string {
	if kind == "layout" {
		return "Layout"
	}
	return "Media"
}

// xiboTime reads the CMS's system format "2006-01-02 15:04:05" in loc, or an RFC 3339 time (the
// API's ISO dates).
func xiboTime(v string, loc *time.Location) (time.Time, error) {
	if t, err := time.ParseInLocation(time.DateTime, v, loc); err == nil {
		return t.UTC(), nil
	}
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t.UTC(), nil
	}
	return time.Time{}, fmt.Errorf("%q is not a date and time like 2026-11-23 06:00:08", truncate(v))
}

// count reads a play count: a whole number from 1 to 1,000,000.
func count(field, v string) (int, string) {
	n, err := strconv.Atoi(v)
	switch {
	case err != nil:
		return 0, fmt.Sprintf("%s %q is not a whole number", field, truncate(v))
	case n < 1:
		return 0, field + " must be at least 1"
	case n > maxRowCount:
		return 0, fmt.Sprintf("%s is over %d", field, maxRowCount)
	}
	return n, ""
}

// truncate keeps a quoted bad value short in a reason.
func truncate(v string) string {
	if len(v) > 40 {
		return v[:40] + "…"
	}
	return v
}

func sortStrings(s []string) {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
}

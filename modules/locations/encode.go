package locations

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"sync"

	// klauspost's gzip writes the same format as the standard library's, in about half the CPU: the
	// available spots are compressed again after every booking.
	"github.com/klauspost/compress/gzip"
)

// The encoders of the map's large answers: the spots of a week and their compression. The face
// list is encoded by facecolumns.go.

// gzipAbove is the size above which a JSON answer is compressed for a client that accepts gzip: the
// face list of a whole country is megabytes of JSON and compresses about tenfold.
const gzipAbove = 32 << 10

// gzipped compresses body with a pooled writer.
func gzipped(body []byte) []byte {
	var buf bytes.Buffer
	buf.Grow(len(body) / 4)
	zw := gzipWriters.Get().(*gzip.Writer)
	defer gzipWriters.Put(zw)
	zw.Reset(&buf)
	_, _ = zw.Write(body) // writing to memory does not fail
	_ = zw.Close()
	return buf.Bytes()
}

// gzipWriters are reused: a compressor's state is hundreds of kilobytes to allocate.
var gzipWriters = sync.Pool{New: func() any {
	zw, _ := gzip.NewWriterLevel(io.Discard, gzip.BestSpeed)
	return zw
}}

// appendSpots writes spots as encoding/json would (a test checks they agree), about five times
// faster: POST /api/available-spots/ answers thousands of them, and its time budget is 50 ms.
func appendSpots(b []byte, spots []AvailableSpot) []byte {
	b = append(b, '[')
	for i := range spots {
		s := &spots[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"xxx":`...)
		b = appendString(b, s.Xxx)
		b = append(b, `,"used_spots":`...)
		b = strconv.AppendInt(b, int64(s.UsedSpots), 10)
		b = append(b, `,"available_spots":`...)
		b = strconv.AppendInt(b, int64(s.AvailableSpots), 10)
		b = append(b, `,"min_value":`...)
		b = appendDollars(b, int64(s.MinValue))
		b = append(b, `,"min_value_2":`...)
		b = appendDollars(b, int64(s.MinValue2))
		b = append(b, `,"vendor_tier":`...)
		b = strconv.AppendInt(b, int64(s.VendorTier), 10)
		b = append(b, `,"old_value":`...)
		b = appendDollars(b, int64(s.OldValue))
		b = append(b, `,"ooh":`...)
		b = strconv.AppendInt(b, s.Ooh, 10)
		b = append(b, `,"available":`...)
		b = strconv.AppendBool(b, s.Available)
		b = append(b, `,"price":`...)
		b = appendDollars(b, int64(s.Price))
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendDollars writes cents as money.Cents's JSON does: dollars, with two decimals only when there
// are cents.
func appendDollars(b []byte, cents int64) []byte {
	if cents < 0 {
		b = append(b, '-')
		cents = -cents
	}
	b = strconv.AppendInt(b, cents/100, 10)
	if c := cents % 100; c != 0 {
		b = append(b, '.', byte('0'+c/10), byte('0'+c%10))
	}
	return b
}

// appendString writes a JSON string: plain ASCII as it is (face ids are UUIDs), anything else
// through encoding/json.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

package locations

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"hash/fnv"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"marquee/platform/apperr"
)

// Forms of GET /api/od/locations/'s answer (its ?format=).
const (
	formJSON    = ""        // []Location, the spec's marker data
	formColumns = "columns" // LocationColumns
	formIDs     = "ids"     // LocationIDs
)

// MsgFormatInvalid refuses a ?format= the answer has no form for.
const MsgFormatInvalid = "Format must be columns or ids (or none, for the faces as JSON)"

// locationsAnswer is GET /api/od/locations/'s encoded answer: the faces of q in form. It is made
// once per catalogue version (faceAnswers).
func (s *service) locationsAnswer(ctx context.Context, q LocationQuery, form string) (*faceAnswer, error) {
	version, err := s.store.CatalogueVersion(ctx)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	return s.faces.answer(faceAnswerKey(form, q), version, func() (any, error) {
		ls, err := s.Locations(ctx, q)
		if err != nil {
			return nil, err
		}
		switch form {
		case formColumns:
			keyBytes, err := s.faceKeyBytes(ctx, version, q, ls)
			if err != nil {
				return nil, err
			}
			return toColumns(ls, keyBytes), nil
		case formIDs:
			ids := LocationIDs{Format: LocationColumnsFormat, Order: idsOrder(ls)}
			ids.UUIDs, ids.ID = encodeIDs(ls, uuidBytes)
			return ids, nil
		}
		return ls, nil
	})
}

// uuidBytes is the length of a UUID.
const uuidBytes = len(uuid.UUID{})

// minKeyBytes is the least a face's key takes: with 4 bytes, a face added after the key length was
// chosen shares the key of one of n faces with a chance of n/2^32 (1 in 400,000 for 10,000 faces).
const minKeyBytes = 4

// faceKeyBytes is how many of its UUID's first bytes tell each face of the catalogue (of version)
// from every other (LocationColumns.KeyBytes); uuidBytes when an id is not a UUID (the keys are then
// the ids). Found once per catalogue version, from ls when they are the faces of the whole
// catalogue (q asks for every market).
func (s *service) faceKeyBytes(ctx context.Context, version int64, q LocationQuery, ls []Location) (int, error) {
	s.faces.mu.Lock()
	if s.faces.keyVersion == version && s.faces.keyBytes > 0 {
		defer s.faces.mu.Unlock()
		return s.faces.keyBytes, nil
	}
	s.faces.mu.Unlock()
	all := ls
	if len(q.Markets) > 0 || q.PlaceID != "" {
		var err error
		if all, err = s.Locations(ctx, LocationQuery{}); err != nil {
			return 0, err
		}
	}
	n := uniquePrefixBytes(all)
	s.faces.mu.Lock()
	s.faces.keyVersion, s.faces.keyBytes = version, n
	s.faces.mu.Unlock()
	return n, nil
}

// uniquePrefixBytes is the fewest first bytes (at least minKeyBytes) of the faces' UUIDs that no two
// faces share; uuidBytes when an id is not a UUID.
func uniquePrefixBytes(ls []Location) int {
	ids := make([]uuid.UUID, len(ls))
	for i := range ls {
		u, err := uuid.Parse(ls[i].ID)
		if err != nil || u.String() != ls[i].ID {
			return uuidBytes
		}
		ids[i] = u
	}
	// Sorted, the longest prefix two ids share is that of two neighbours.
	slices.SortFunc(ids, func(a, b uuid.UUID) int { return bytes.Compare(a[:], b[:]) })
	n := minKeyBytes
	for i := 1; i < len(ids); i++ {
		shared := 0
		for shared < uuidBytes && ids[i][shared] == ids[i-1][shared] {
			shared++
		}
		n = max(n, min(shared+1, uuidBytes))
	}
	return n
}

// toColumns encodes faces as LocationColumns, each face's key its UUID's first keyBytes bytes.
func toColumns(ls []Location, keyBytes int) LocationColumns {
	n := len(ls)
	c := LocationColumns{
		Format: LocationColumnsFormat, Order: idsOrder(ls), Name: make([]int, n), Market: make([]int, n), City: make([]int, n),
		Face: make([]int, n), Snapshot: make([]int, n), Lat: make([]int64, n), Lng: make([]int64, n), Value: make([]int64, n),
		Ooh: make([]int64, n), Frequency: make([]int, n), Duration: make([]int, n), Flags: make([]int, n),
		Names: []string{}, Markets: []string{}, Cities: []string{}, Faces: []string{}, Snapshots: []string{},
	}
	names, markets, cities, faces, snapshots := dictionary{}, dictionary{}, dictionary{}, dictionary{}, dictionary{}
	c.Keys, c.Key = encodeIDs(ls, keyBytes)
	if c.Keys != "" {
		c.KeyBytes = keyBytes
	}
	var lastName int
	var lastLat, lastLng int64
	for i := range ls {
		l := &ls[i]
		name := names.index(&c.Names, l.LocationName)
		c.Name[i], lastName = name-lastName, name
		c.Market[i] = markets.index(&c.Markets, l.Market)
		c.City[i] = cities.index(&c.Cities, l.City)
		c.Face[i] = faces.index(&c.Faces, l.Face)
		snapshot := l.NewLocationSnapshot
		if snapshot == "" {
			snapshot = l.LocationSnapshot
		}
		c.Snapshot[i] = snapshots.index(&c.Snapshots, snapshot)
		lat, lng := int64(math.Round(l.Lat*1e5)), int64(math.Round(l.Lng*1e5))
		c.Lat[i], c.Lng[i], lastLat, lastLng = lat-lastLat, lng-lastLng, lat, lng
		c.Value[i], c.Ooh[i] = int64(l.Value), l.Ooh
		c.Frequency[i], c.Duration[i] = l.Location.AdRotationFrequency, l.Location.AdSpotDuration
		if l.Likely {
			c.Flags[i] |= FlagLikely
		}
		if l.ExcludeMaximizeBudget {
			c.Flags[i] |= FlagExcludeMaximizeBudget
		}
		if l.Distance != nil {
			if c.Distance == nil {
				c.Distance = make([]int64, n)
			}
			c.Distance[i] = int64(math.Round(*l.Distance * 100))
		}
	}
	return c
}

// idsOrder is LocationColumns.Order and LocationIDs.Order: a digest of the faces' ids in their order.
func idsOrder(ls []Location) string {
	h := fnv.New64a()
	for i := range ls {
		_, _ = h.Write([]byte(ls[i].ID))
		_, _ = h.Write([]byte{0})
	}
	return strconv.FormatUint(h.Sum64(), 36)
}

// encodeIDs writes the first prefix bytes of the faces' UUIDs in base64, or the ids as they are
// when one is not a UUID in its canonical form (the decoder writes UUIDs back in that form).
func encodeIDs(ls []Location, prefix int) (string, []string) {
	raw := make([]byte, 0, prefix*len(ls))
	for i := range ls {
		u, err := uuid.Parse(ls[i].ID)
		if err != nil || u.String() != ls[i].ID {
			ids := make([]string, len(ls))
			for j := range ls {
				ids[j] = ls[j].ID
			}
			return "", ids
		}
		raw = append(raw, u[:prefix]...)
	}
	return base64.StdEncoding.EncodeToString(raw), nil
}

// dictionary numbers strings in the order they first appear.
type dictionary map[string]int

func (d dictionary) index(values *[]string, s string) int {
	if i, ok := d[s]; ok {
		return i
	}
	d[s] = len(*values)
	*values = append(*values, s)
	return d[s]
}

// faceAnswers keeps the encoded answers of GET /api/od/locations/ while the catalogue version they
// were made under is current, so a repeated map load costs one primary-key read, and a browser
// that has the answer gets 304 Not Modified (the answer's ETag changes only with the faces).
type faceAnswers struct {
	mu    sync.Mutex
	m     map[string]*faceAnswer
	bytes int // of the kept answers' bodies
	// keyBytes is LocationColumns.KeyBytes under catalogue version keyVersion (faceKeyBytes).
	keyVersion int64
	keyBytes   int
}

type faceAnswer struct {
	version  int64
	etag     string
	body, gz []byte // gz is nil below gzipAbove
}

// maxFaceAnswers and maxFaceAnswerBytes bound the kept answers (every market, the whole country, a
// few place searches; the JSON of 10,000 faces is 5 MB): past either, they start again, so that
// asking for many combinations of markets cannot grow the memory.
const (
	maxFaceAnswers     = 64
	maxFaceAnswerBytes = 32 << 20
)

// answer returns the encoded answer of key under version, made by build when it is not kept.
func (a *faceAnswers) answer(key string, version int64, build func() (any, error)) (*faceAnswer, error) {
	a.mu.Lock()
	hit := a.m[key]
	a.mu.Unlock()
	if hit != nil && hit.version == version {
		return hit, nil
	}
	v, err := build()
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(v)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	h := fnv.New64a()
	_, _ = h.Write(body)
	made := &faceAnswer{version: version, body: body, etag: `"` + strconv.FormatUint(h.Sum64(), 36) + `"`}
	if len(body) >= gzipAbove {
		// The best compression: it is made once per catalogue version and sent many times.
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		_, _ = zw.Write(body) // writing to memory does not fail
		_ = zw.Close()
		made.gz = buf.Bytes()
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	size := len(made.body) + len(made.gz)
	if old := a.m[key]; old != nil {
		delete(a.m, key)
		a.bytes -= len(old.body) + len(old.gz)
	}
	if a.m == nil || len(a.m) >= maxFaceAnswers || a.bytes+size > maxFaceAnswerBytes {
		a.m, a.bytes = map[string]*faceAnswer{}, 0
	}
	if size <= maxFaceAnswerBytes {
		a.m[key], a.bytes = made, a.bytes+size
	}
	return made, nil
}

// send writes the answer with its ETag, or 304 when the browser's copy is the same. no-cache: the
// browser keeps the answer and asks each time whether it is still current.
func (f *faceAnswer) send(c *gin.Context) {
	c.Header("ETag", f.etag)
	c.Header("Cache-Control", "no-cache")
	c.Header("Vary", "Accept-Encoding")
	if etagMatches(c.GetHeader("If-None-Match"), f.etag) {
		c.Status(http.StatusNotModified)
		return
	}
	if f.gz != nil && acceptsGzip(c) {
		c.Header("Content-Encoding", "gzip")
		c.Data(http.StatusOK, "application/json; charset=utf-8", f.gz)
		return
	}
	c.Data(http.StatusOK, "application/json; charset=utf-8", f.body)
}

// etagMatches reads If-None-Match (RFC 9110 §13.1.2: a list, weak comparison, or *).
func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}

// faceAnswerKey is what an answer depends on besides the faces: the form and the query.
func faceAnswerKey(form string, q LocationQuery) string {
	markets := slices.Clone(q.Markets)
	slices.Sort(markets)
	return form + "|" + q.PlaceID + "|" + strconv.Itoa(q.Radius) + "|" + strings.Join(markets, "\x00")
}

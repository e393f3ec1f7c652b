package screens

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"io"
	"strconv"
	"strings"
	"time"

	"marquee/modules/campaigns"
	"marquee/modules/locations"
	"marquee/platform/apperr"
	"marquee/platform/dates"
	"marquee/platform/storage"
)

// URLLife is how long a schedule's download URLs are valid at least. They are cut on a UTC day
// boundary (valid to the end of the next day), so a schedule's ETag stays the same all day.
const URLLife = 24 * time.Hour

func (s *service) face(ctx context.Context, id string) (*locations.Location, error) {
	fs, err := s.deps.Faces.FindFacesByIDs(ctx, []string{id})
	if err != nil {
		return nil, err
	}
	if len(fs) == 0 {
		return nil, apperr.NotFound(MsgFaceNotFound)
	}
	return &fs[0], nil
}

func (s *service) ScheduleOf(ctx context.Context, d *Device, from dates.Date, weeks int) (*Schedule, error) {
	now := s.deps.Clock.Now()
	f, err := s.face(ctx, d.FaceID)
	if err != nil {
		return nil, err
	}
	hours := s.hoursOf(f)
	if from.IsZero() {
		from = hours.today(now)
	}
	from = from.WeekStart()
	if weeks < 1 || weeks > 8 {
		weeks = 2
	}
	slot, loop := Loop(f.Location.AdSpotDuration, f.Location.AdRotationFrequency)
	bookings, err := s.deps.Bookings.FaceBookings(ctx, []string{d.FaceID}, from, from.AddWeeks(weeks-1))
	if err != nil {
		return nil, err
	}
	files, err := s.creativeFiles(ctx, bookings)
	if err != nil {
		return nil, err
	}
	day := now.UTC().Truncate(24 * time.Hour)
	expires := day.Add(URLLife + 24*time.Hour)
	out := &Schedule{ScreenID: d.ScreenID, FaceID: d.FaceID, Timezone: hours.loc.String(), SlotSeconds: slot, LoopSeconds: loop,
		Hours: Hours{Open: locations.ClockText(hours.open), Close: locations.ClockText(hours.close)}}
	for _, wk := range from.Weeks(weeks) {
		w := ScheduleWeek{WeekStart: wk, Items: []ScheduleItem{}}
		for _, b := range bookings {
			file, ok := files[b.CreativeID]
			if !b.Week.Equal(wk) || !ok {
				continue
			}
			w.Items = append(w.Items, ScheduleItem{CampaignID: b.CampaignID, CreativeID: b.CreativeID, SHA256: file.sum,
				URL: s.downloadURL(d.ScreenID, b.CreativeID, expires), ExpiresAt: expires})
		}
		out.Weeks = append(out.Weeks, w)
	}
	return out, nil
}

type creativeFile struct{ key, sum string }

// creativeFiles finds the stored file of each booked creative and its SHA-256 (computed once per
// file and kept).
func (s *service) creativeFiles(ctx context.Context, bookings []campaigns.FaceBooking) (map[string]creativeFile, error) {
	var ids []string
	seen := map[string]bool{}
	for _, b := range bookings {
		if b.CreativeID != "" && !seen[b.CreativeID] {
			seen[b.CreativeID] = true
			ids = append(ids, b.CreativeID)
		}
	}
	out := map[string]creativeFile{}
	if len(ids) == 0 {
		return out, nil
	}
	crs, err := s.deps.Creatives.FindCreativesByIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(crs))
	for _, c := range crs {
		keys = append(keys, c.URL)
	}
	sums, err := s.store.FileHashes(ctx, keys)
	if err != nil {
		return nil, err
	}
	for _, c := range crs {
		sum, ok := sums[c.URL]
		if !ok {
			if sum, err = storage.SHA256(ctx, s.deps.Objects, c.URL); err != nil {
				s.deps.Log.WarnContext(ctx, "screens: a booked creative's file cannot be read", "creative", c.ID, "err", err)
				continue
			}
			if err := s.store.SaveFileHash(ctx, c.URL, sum); err != nil {
				return nil, err
			}
		}
		out[c.ID] = creativeFile{key: c.URL, sum: sum}
	}
	return out, nil
}

// downloadURL is a creative's download address for a screen until expires: the token is the
// screen, the creative and the expiry, signed with the server's Ed25519 key, so any replica checks
// it and nothing is stored per URL.
func (s *service) downloadURL(screenID, creativeID string, expires time.Time) string {
	payload := screenID + "." + creativeID + "." + strconv.FormatInt(expires.Unix(), 10)
	sig, err := s.deps.Signer.Sign([]byte("screens-download:" + payload))
	if err != nil {
		return ""
	}
	return strings.TrimRight(s.deps.BaseURL, "/") + "/api/device/files/" + payload + "." + base64.RawURLEncoding.EncodeToString(sig)
}

// openDownload checks a download token and opens the creative's file. ENOTFOUND for any bad,
// expired or revoked token (the same answer for all).
func (s *service) openDownload(ctx context.Context, token string) (io.ReadCloser, string, error) {
	notFound := apperr.NotFound("This download link is unknown or expired.")
	parts := strings.Split(token, ".")
	if len(parts) != 4 || len(token) > 300 {
		return nil, "", notFound
	}
	sig, err := base64.RawURLEncoding.Strict().DecodeString(parts[3]) // one spelling per token
	payload := strings.Join(parts[:3], ".")
	if err != nil || !ed25519.Verify(s.deps.Signer.PublicKey(), []byte("screens-download:"+payload), sig) {
		return nil, "", notFound
	}
	exp, err := strconv.ParseInt(parts[2], 10, 64)
	if err != nil || s.deps.Clock.Now().After(time.Unix(exp, 0)) {
		return nil, "", notFound
	}
	scr, err := s.store.FindScreen(ctx, parts[0])
	if err != nil || scr == nil || scr.Status != StatusActive {
		return nil, "", notFound
	}
	crs, err := s.deps.Creatives.FindCreativesByIDs(ctx, []string{parts[1]})
	if err != nil || len(crs) == 0 {
		return nil, "", notFound
	}
	rc, obj, err := s.deps.Objects.Get(ctx, crs[0].URL)
	if err != nil {
		return nil, "", notFound
	}
	return rc, obj.ContentType, nil
}

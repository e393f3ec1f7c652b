package screens

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"strings"
	"time"

	"marquee/modules/screens/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/audit"
	"marquee/platform/auth"
	"marquee/platform/db"
	"marquee/platform/ids"
)

// codeAlphabet has no 0/O, 1/I/L or 8/B to mistake on a screen's on-site setup.
const codeAlphabet = "ACDEFGHJKMNPQRSTUVWXYZ2345679"

// newCode draws a pairing code shown as XXXX-XXXX-XXXX (about 58 bits).
func newCode() (string, error) {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	var sb strings.Builder
	for i, x := range b {
		if i > 0 && i%4 == 0 {
			sb.WriteByte('-')
		}
		sb.WriteByte(codeAlphabet[int(x)%len(codeAlphabet)])
	}
	return sb.String(), nil
}

func (s *service) CreatePairingCode(ctx context.Context, p *auth.Principal, req PairingCodeRequest) (*PairingCode, error) {
	var out *PairingCode
	err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		var err error
		if out, err = s.newPairingCode(ctx, p.UserID, strings.TrimSpace(req.FaceID)); err != nil {
			return err
		}
		return s.deps.Audit.Record(ctx, audit.Change{Action: AuditPairingCode, ObjectType: "face", ObjectID: out.FaceID,
			After: map[string]any{"expires_at": out.ExpiresAt}})
	})
	return out, err
}

// newPairingCode stores the SHA-256 of a new code for the face and answers the code, once.
func (s *service) newPairingCode(ctx context.Context, by, faceID string) (*PairingCode, error) {
	if faceID == "" || len(faceID) > 36 {
		return nil, apperr.Field("face_id", MsgFaceNotFound)
	}
	faces, err := s.deps.Faces.FindFacesByIDs(ctx, []string{faceID})
	if err != nil {
		return nil, err
	}
	if len(faces) == 0 {
		return nil, apperr.NotFound(MsgFaceNotFound)
	}
	code, err := newCode()
	if err != nil {
		return nil, err
	}
	now := s.deps.Clock.Now()
	row := store.PairingCode{ID: ids.New(), CodeHash: BodyHash([]byte(NormalizeCode(code))), FaceID: faceID, CreatedBy: by,
		ExpiresAt: now.Add(CodeLife), CreatedAt: now}
	if err := s.store.Create(ctx, &row); err != nil {
		return nil, err
	}
	return &PairingCode{Code: code, FaceID: faceID, ExpiresAt: row.ExpiresAt.UTC()}, nil
}

func (s *service) Pair(ctx context.Context, req PairRequest) (*PairResult, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimSpace(req.PublicKey))
	if err != nil || len(key) != ed25519.PublicKeySize {
		return nil, apperr.New(apperr.EUNAUTHORIZED, MsgBadPublicKey)
	}
	code := NormalizeCode(req.Code)
	if code == "" {
		return nil, apperr.New(apperr.EUNAUTHORIZED, MsgBadCode)
	}
	version := req.AppVersion
	if len(version) > 100 {
		version = version[:100]
	}
	var out *PairResult
	err = db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		now := s.deps.Clock.Now()
		id := ids.New()
		pc, err := s.store.UsePairingCode(ctx, BodyHash([]byte(code)), id, now)
		if err != nil {
			return err
		}
		if pc == nil {
			return apperr.New(apperr.EUNAUTHORIZED, MsgBadCode)
		}
		// One screen per face: its plays are the face's figure, and two players would count twice.
		// A new pairing replaces the face's screen (new hardware), whose calls then answer 401.
		if err := s.store.RevokeScreensOfFace(ctx, pc.FaceID, now); err != nil {
			return err
		}
		scr := store.Screen{ID: id, FaceID: pc.FaceID, PublicKey: base64.StdEncoding.EncodeToString(key), Status: StatusActive,
			PairedAt: now, AppVersion: version, CreatedAt: now}
		if err := s.store.Create(ctx, &scr); err != nil {
			return err
		}
		out = &PairResult{ScreenID: id, FaceID: pc.FaceID, Protocol: Protocol}
		return nil
	})
	return out, err
}

func (s *service) RevokeScreen(ctx context.Context, p *auth.Principal, id string) (*Screen, error) {
	err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		scr, err := s.store.FindScreen(ctx, id)
		if err != nil {
			return err
		}
		if scr == nil {
			return apperr.NotFound(MsgScreenMissing)
		}
		if scr.Status == StatusRevoked {
			return nil
		}
		now := s.deps.Clock.Now()
		if err := s.store.UpdateScreen(ctx, id, map[string]any{"status": StatusRevoked, "revoked_at": now}); err != nil {
			return err
		}
		return s.deps.Audit.Record(ctx, audit.Change{Action: AuditScreenRevoke, ObjectType: "screen", ObjectID: id,
			Before: map[string]string{"status": scr.Status}, After: map[string]string{"status": StatusRevoked}})
	})
	if err != nil {
		return nil, err
	}
	list, err := s.screens(ctx, id)
	if err != nil || len(list) == 0 {
		return nil, err
	}
	return &list[0], nil
}

// OnlineWindow is how recently a screen must have been heard to show as online.
const OnlineWindow = 10 * time.Minute

func (s *service) ListScreens(ctx context.Context, _ *auth.Principal) (*ScreenList, error) {
	items, err := s.screens(ctx, "")
	if err != nil {
		return nil, err
	}
	return &ScreenList{Items: items, Total: len(items)}, nil
}

// screens builds the admin rows (of one screen when only is set), reading faces, bookings and
// today's rollups in batches: one batch per time zone, since "today" is each face's own day.
func (s *service) screens(ctx context.Context, only string) ([]Screen, error) {
	rows, err := s.store.Screens(ctx)
	if err != nil {
		return nil, err
	}
	now := s.deps.Clock.Now()
	var faceIDs []string
	seen := map[string]bool{}
	for _, r := range rows {
		if (only == "" || r.ID == only) && !seen[r.FaceID] {
			seen[r.FaceID] = true
			faceIDs = append(faceIDs, r.FaceID)
		}
	}
	faces, err := s.deps.Faces.FindFacesByIDs(ctx, faceIDs)
	if err != nil {
		return nil, err
	}
	faceByID := map[string]int{}
	hoursOf := map[string]faceHours{}
	zones := map[string][]string{} // zone name → its faces
	for i := range faces {
		h := s.hoursOf(&faces[i])
		faceByID[faces[i].ID], hoursOf[faces[i].ID] = i, h
		zones[h.loc.String()] = append(zones[h.loc.String()], faces[i].ID)
	}
	played := map[string]int64{}
	booked := map[string]int64{}
	for _, ids := range zones {
		h := hoursOf[ids[0]]
		p, err := s.store.PlaysSince(ctx, ids, h.midnight(now).UTC())
		if err != nil {
			return nil, err
		}
		for id, n := range p {
			played[id] = n
		}
		week := h.week(now)
		bookings, err := s.deps.Bookings.FaceBookings(ctx, ids, week, week)
		if err != nil {
			return nil, err
		}
		for _, b := range bookings {
			booked[b.FaceID]++
		}
	}
	out := []Screen{}
	for _, r := range rows {
		if only != "" && r.ID != only {
			continue
		}
		scr := Screen{ID: r.ID, FaceID: r.FaceID, Status: r.Status, PairedAt: r.PairedAt.UTC(), LastSeenAt: r.LastSeenAt, AppVersion: r.AppVersion,
			FreeDiskBytes: r.FreeDiskBytes, CurrentCreativeID: r.CurrentCreativeID, LastError: r.LastError, PlaysToday: played[r.FaceID]}
		switch {
		case r.LastSeenAt == nil:
			scr.Health = HealthNeverSeen
		case now.Sub(*r.LastSeenAt) <= OnlineWindow:
			scr.Health = HealthOnline
		default:
			scr.Health = HealthOffline
		}
		if i, ok := faceByID[r.FaceID]; ok {
			f := faces[i]
			scr.Location, scr.Lat, scr.Lng = f.LocationName+" "+f.Face, f.Lat, f.Lng
			_, loop := Loop(f.Location.AdSpotDuration, f.Location.AdRotationFrequency)
			scr.ExpectedToday = booked[r.FaceID] * hoursOf[r.FaceID].openSecondsSoFar(now) / int64(loop)
		}
		out = append(out, scr)
	}
	return out, nil
}

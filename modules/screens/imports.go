package screens

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"marquee/modules/campaigns"
	"marquee/modules/screens/internal/importfmt"
	"marquee/modules/screens/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/audit"
	"marquee/platform/auth"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/httpx"
	"marquee/platform/ids"
)

// ImportUpload is one uploaded file as the handler streams it to ImportFile.
type ImportUpload struct {
	Format   string // xibo, csv, or empty (the header decides)
	Timezone string // the zone of Xibo dates written without one; empty is UTC
	FileName string
	Body     io.Reader
}

// maxUnmapped bounds the unmapped references an import keeps for the mapping screen.
const maxUnmapped = 500

// faceCampaignWeek keys what an import counts: unlike a screen's batch, one file covers many faces.
type faceCampaignWeek struct {
	face, campaign string
	week           dates.Date
}

func requireAdmin(p *auth.Principal) error {
	if p == nil || !p.IsAdmin() {
		return apperr.New(apperr.EFORBIDDEN, "Imports are for admins.")
	}
	return nil
}

// ImportFile reads an export and applies it (docs/screens-import.md "Importing"). The file is
// hashed while it is parsed; the same file again answers its latest report, unless a reference
// it had unmapped has been mapped since. Each row is refused
// (it did not parse, or its display or media is not mapped), a duplicate (a row with the same
// display, media and start was imported before), flagged (stored, not counted: outside the
// booked schedule, or outside the backfill window a screen's plays have), or accepted: counted
// into the same hourly rollups as a screen's plays, and the touched campaign-weeks' figures set
// from them with source import, the file's SHA-256 entering each campaign's proof chain.
func (s *service) ImportFile(ctx context.Context, p *auth.Principal, up ImportUpload) (*ImportReport, error) {
	if err := requireAdmin(p); err != nil {
		return nil, err
	}
	var format importfmt.Format
	switch up.Format {
	case "":
	case ImportFormatXibo:
		format = importfmt.FormatXibo
	case ImportFormatCSV, string(importfmt.FormatGeneric):
		format = importfmt.FormatGeneric
	default:
		return nil, apperr.Field("format", MsgImportFormat)
	}
	loc := time.UTC
	if up.Timezone != "" {
		l, err := time.LoadLocation(up.Timezone)
		if err != nil || len(up.Timezone) > 64 || !httpx.IsSingleLine(up.Timezone) {
			return nil, apperr.Field("tz", MsgImportTimezone)
		}
		loc = l
	}
	name := up.FileName
	if !utf8.ValidString(name) || !httpx.IsSingleLine(name) {
		name = ""
	}
	if len(name) > 255 {
		name = name[:255]
	}
	sum := sha256.New()
	res, err := importfmt.Parse(io.TeeReader(up.Body, sum), format, importfmt.Options{Location: loc, MaxBytes: MaxImportBytes})
	if err != nil {
		return nil, parseError(err)
	}
	// The parser stops at the CSV's end; whatever follows still belongs to the file's hash.
	if _, err := io.Copy(sum, up.Body); err != nil {
		return nil, parseError(err)
	}
	digest := hex.EncodeToString(sum.Sum(nil))
	fmtName := ImportFormatCSV
	if res.Format == importfmt.FormatXibo {
		fmtName = ImportFormatXibo
	}

	var out *ImportReport
	err = db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		// One import at a time: the duplicate check of rows across files is exact.
		if err := db.LockForTx(ctx, s.deps.DB, "screens-imports"); err != nil {
			return err
		}
		prev, err := s.store.FindImportByHash(ctx, digest)
		if err != nil {
			return err
		}
		if prev != nil {
			again, err := s.mappedSince(ctx, prev)
			if err != nil || !again {
				out = importReport(prev, true)
				return err
			}
		}
		out, err = s.applyImport(ctx, p, res, digest, fmtName, name)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// mappedSince reports whether a reference an earlier import of the file left unmapped has a
// mapping now: then the file is read again, and only its rows that were refused for want of that
// mapping can count (every row stored before is a duplicate by its key).
func (s *service) mappedSince(ctx context.Context, prev *store.Import) (bool, error) {
	var u storedUnmapped
	if err := json.Unmarshal([]byte(prev.Unmapped), &u); err != nil {
		return false, nil
	}
	if len(u.Displays) > 0 {
		ds, err := s.store.ImportDisplays(ctx, u.Displays)
		if err != nil || len(ds) > 0 {
			return len(ds) > 0, err
		}
	}
	if len(u.Media) > 0 {
		ms, err := s.store.ImportMedias(ctx, u.Media)
		if err != nil || len(ms) > 0 {
			return len(ms) > 0, err
		}
	}
	return false, nil
}

func parseError(err error) error {
	switch {
	case httpx.IsTooLarge(err), errors.Is(err, importfmt.ErrTooLarge):
		return apperr.New(apperr.ETOOLARGE, MsgImportTooLarge)
	case errors.Is(err, importfmt.ErrTooManyRows), errors.Is(err, importfmt.ErrHeader), errors.Is(err, importfmt.ErrEncoding):
		return apperr.Field("file", capitalize(err.Error())+".")
	}
	return apperr.Field("file", "The file could not be read as CSV.")
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// applyImport maps, deduplicates, flags and counts the parsed rows, in the caller's transaction.
func (s *service) applyImport(ctx context.Context, p *auth.Principal, res *importfmt.Result, digest, format, fileName string) (*ImportReport, error) {
	now := s.deps.Clock.Now()
	rep := &ImportReport{ID: ids.New(), Format: format, FileName: fileName, SHA256: digest, UploadedBy: p.UserID, CreatedAt: now,
		Total: len(res.Rows) + len(res.Refused), Rows: []ImportRowReason{}, UnmappedDisplays: []string{}, UnmappedMedia: []string{}}
	var reasons []ImportRowReason
	for _, r := range res.Refused {
		reasons = append(reasons, ImportRowReason{Line: r.Line, Kind: ImportRefused, Reason: r.Reason})
	}

	// The mappings of the file's references.
	dispRefs, mediaRefs := []string{}, []string{}
	seenD, seenM := map[string]bool{}, map[string]bool{}
	for _, r := range res.Rows {
		if !seenD[r.Display] {
			seenD[r.Display] = true
			dispRefs = append(dispRefs, r.Display)
		}
		if !seenM[r.Media] {
			seenM[r.Media] = true
			mediaRefs = append(mediaRefs, r.Media)
		}
	}
	faceOf := map[string]string{}
	ds, err := s.store.ImportDisplays(ctx, dispRefs)
	if err != nil {
		return nil, err
	}
	mappedFaces := []string{}
	for _, d := range ds {
		faceOf[d.Ref] = d.FaceID
		mappedFaces = append(mappedFaces, d.FaceID)
	}
	// The mapped faces' loops and hours: a row's week is its face's (hours.go), and its figure
	// follows its face's loop and operating day. A face that is gone has none.
	hoursOf := map[string]faceHours{}
	figures := map[string]faceFigures{}
	fs, err := s.deps.Faces.FindFacesByIDs(ctx, mappedFaces)
	if err != nil {
		return nil, err
	}
	for i := range fs {
		h := s.hoursOf(&fs[i])
		_, loop := Loop(fs[i].Location.AdSpotDuration, fs[i].Location.AdRotationFrequency)
		hoursOf[fs[i].ID], figures[fs[i].ID] = h, faceFigures{loop: loop, openPerDay: h.openSecondsPerDay()}
	}
	mediaOf := map[string]store.ImportMedia{}
	ms, err := s.store.ImportMedias(ctx, mediaRefs)
	if err != nil {
		return nil, err
	}
	for _, m := range ms {
		mediaOf[m.Ref] = m
	}
	for _, ref := range dispRefs {
		if faceOf[ref] == "" && len(rep.UnmappedDisplays) < maxUnmapped {
			rep.UnmappedDisplays = append(rep.UnmappedDisplays, ref)
		}
	}
	for _, ref := range mediaRefs {
		if _, ok := mediaOf[ref]; !ok && len(rep.UnmappedMedia) < maxUnmapped {
			rep.UnmappedMedia = append(rep.UnmappedMedia, ref)
		}
	}

	// The mapped rows: their faces' loops, the bookings of their weeks, the rows already stored.
	type mapped struct {
		row  importfmt.Row
		face string
		m    store.ImportMedia
		week dates.Date
		key  store.ImportKey
	}
	var rows []mapped
	faceIDs := []string{}
	seenF := map[string]bool{}
	mappedDisplays := []string{}
	var minWeek, maxWeek dates.Date
	var minFrom, maxFrom time.Time
	for _, r := range res.Rows {
		face := faceOf[r.Display]
		m, okM := mediaOf[r.Media]
		switch {
		case face == "":
			reasons = append(reasons, ImportRowReason{Line: r.Line, Kind: ImportRefused, Reason: fmt.Sprintf("Display %q is not mapped to a face.", r.Display)})
			continue
		case !okM:
			reasons = append(reasons, ImportRowReason{Line: r.Line, Kind: ImportRefused, Reason: fmt.Sprintf("Media %q is not mapped to a creative.", r.Media)})
			continue
		}
		from := r.From.UTC().Truncate(time.Second)
		hours, ok := hoursOf[face]
		if !ok {
			hours = s.hoursOf(nil)
		}
		wk := hours.week(from)
		rows = append(rows, mapped{row: r, face: face, m: m, week: wk, key: store.ImportKey{Display: r.Display, Media: r.Media, From: from.Unix()}})
		if !seenF[face] {
			seenF[face] = true
			faceIDs = append(faceIDs, face)
		}
		if minWeek.IsZero() || wk.Before(minWeek) {
			minWeek = wk
		}
		if maxWeek.IsZero() || wk.After(maxWeek) {
			maxWeek = wk
		}
		if minFrom.IsZero() || from.Before(minFrom) {
			minFrom = from
		}
		if from.After(maxFrom) {
			maxFrom = from
		}
	}
	rep.Refused = len(reasons)
	inMapped := map[string]bool{}
	for _, r := range rows {
		if !inMapped[r.row.Display] {
			inMapped[r.row.Display] = true
			mappedDisplays = append(mappedDisplays, r.row.Display)
		}
	}

	booked := map[faceCampaignWeek]campaigns.FaceBooking{}
	var existing map[store.ImportKey]bool
	if len(rows) > 0 {
		bs, err := s.deps.Bookings.FaceBookings(ctx, faceIDs, minWeek, maxWeek)
		if err != nil {
			return nil, err
		}
		for _, b := range bs {
			booked[faceCampaignWeek{b.FaceID, b.CampaignID, b.Week}] = b
		}
		if existing, err = s.store.ExistingImportRows(ctx, mappedDisplays, minFrom.Add(-time.Second), maxFrom.Add(time.Second)); err != nil {
			return nil, err
		}
	}

	var stored []store.ImportRow
	rollups := map[store.Rollup]int64{}
	counted := map[faceCampaignWeek]int64{}
	for _, r := range rows {
		if existing[r.key] {
			rep.Duplicates++
			reasons = append(reasons, ImportRowReason{Line: r.row.Line, Kind: ImportDuplicate, Reason: "A row of this display, media and start was imported before."})
			continue
		}
		existing[r.key] = true // the same key twice in one file is a duplicate too
		k := faceCampaignWeek{r.face, r.m.CampaignID, r.week}
		flag := TimeFlag(r.row.From, s.deps.Clock.Now())
		if b, ok := booked[k]; flag == "" && (!ok || b.CreativeID != r.m.CreativeID) {
			flag = FlagNotBooked
		}
		if _, ok := figures[r.face]; !ok && flag == "" {
			flag = FlagNotBooked // the face is gone
		}
		stored = append(stored, store.ImportRow{Display: r.row.Display, Media: r.row.Media, FromAt: time.Unix(r.key.From, 0).UTC(), ToAt: r.row.To.UTC(),
			ImportID: rep.ID, FaceID: r.face, CampaignID: r.m.CampaignID, CreativeID: r.m.CreativeID, Week: r.week,
			Count: int64(r.row.Count), DurationMs: r.row.Duration.Milliseconds(), Flag: flag})
		if flag != "" {
			rep.Flagged++
			reasons = append(reasons, ImportRowReason{Line: r.row.Line, Kind: ImportFlagged, Reason: flagReason(flag)})
			continue
		}
		rep.Accepted++
		rep.Plays += int64(r.row.Count)
		// An aggregate row's plays are put in the hour it starts: Xibo's hourly rows stay in their
		// hour, and a daily row still lands in its week.
		rollups[store.Rollup{FaceID: r.face, CampaignID: r.m.CampaignID, CreativeID: r.m.CreativeID, Hour: r.row.From.UTC().Truncate(time.Hour), Week: r.week}] += int64(r.row.Count)
		counted[k] += int64(r.row.Count)
	}
	if err := s.store.InsertImportRows(ctx, stored); err != nil {
		return nil, err
	}
	rs := make([]store.Rollup, 0, len(rollups))
	for r, n := range rollups {
		r.Plays = n
		rs = append(rs, r)
	}
	sort.Slice(rs, func(i, j int) bool { // the same order as a batch's: no deadlock with a screen's writer
		a, b := rs[i], rs[j]
		if a.CampaignID != b.CampaignID {
			return a.CampaignID < b.CampaignID
		}
		if a.CreativeID != b.CreativeID {
			return a.CreativeID < b.CreativeID
		}
		if a.FaceID != b.FaceID {
			return a.FaceID < b.FaceID
		}
		return a.Hour.Before(b.Hour)
	})
	if err := s.store.AddRollups(ctx, rs); err != nil {
		return nil, err
	}
	// Signed by Marquee only, naming the file's SHA-256: no device signed a CMS's export.
	err = s.deliver(ctx, counted, booked, figures, func(_ faceCampaignWeek, out *campaigns.ScreenDelivery) {
		out.Source, out.ImportHash = campaigns.DeliverySourceImport, digest
	})
	if err != nil {
		return nil, err
	}

	sort.SliceStable(reasons, func(i, j int) bool { return reasons[i].Line < reasons[j].Line })
	if len(reasons) > MaxImportReasons {
		reasons, rep.Truncated = reasons[:MaxImportReasons], true
	}
	rep.Rows = append(rep.Rows, reasons...)
	report, _ := json.Marshal(storedReport{Rows: rep.Rows, Truncated: rep.Truncated})
	unmapped, _ := json.Marshal(storedUnmapped{Displays: rep.UnmappedDisplays, Media: rep.UnmappedMedia})
	if err := s.store.Create(ctx, &store.Import{ID: rep.ID, SHA256: digest, Format: format, FileName: fileName, UploadedBy: p.UserID,
		Rows: rep.Total, Accepted: rep.Accepted, Flagged: rep.Flagged, Refused: rep.Refused, Duplicates: rep.Duplicates, Plays: rep.Plays,
		Report: string(report), Unmapped: string(unmapped), CreatedAt: now}); err != nil {
		return nil, err
	}
	if err := s.deps.Audit.Record(ctx, audit.Change{Action: AuditImport, ObjectType: "screens_import", ObjectID: rep.ID,
		After: map[string]any{"sha256": digest, "format": format, "accepted": rep.Accepted, "flagged": rep.Flagged, "refused": rep.Refused, "duplicates": rep.Duplicates}}); err != nil {
		return nil, err
	}
	return rep, nil
}

func flagReason(flag string) string {
	switch flag {
	case FlagNotBooked:
		return "Stored, not counted: the creative is not booked on this face that week."
	case FlagTooOld:
		return fmt.Sprintf("Stored, not counted: older than the %d-day backfill window.", BackfillDays)
	case FlagInFuture:
		return "Stored, not counted: it starts in the future."
	}
	return "Stored, not counted: " + flag + "."
}

type storedReport struct {
	Rows      []ImportRowReason `json:"rows"`
	Truncated bool              `json:"truncated"`
}

type storedUnmapped struct {
	Displays []string `json:"displays"`
	Media    []string `json:"media"`
}

// importReport is a stored import's report; withRows adds its row reasons.
func importReport(row *store.Import, withRows bool) *ImportReport {
	out := &ImportReport{ID: row.ID, Format: row.Format, FileName: row.FileName, SHA256: row.SHA256, UploadedBy: row.UploadedBy,
		CreatedAt: row.CreatedAt, Repeat: withRows, Total: row.Rows, Accepted: row.Accepted, Flagged: row.Flagged, Refused: row.Refused,
		Duplicates: row.Duplicates, Plays: row.Plays, Rows: []ImportRowReason{}, UnmappedDisplays: []string{}, UnmappedMedia: []string{}}
	var u storedUnmapped
	if json.Unmarshal([]byte(row.Unmapped), &u) == nil {
		out.UnmappedDisplays = append(out.UnmappedDisplays, u.Displays...)
		out.UnmappedMedia = append(out.UnmappedMedia, u.Media...)
	}
	if withRows {
		var r storedReport
		if json.Unmarshal([]byte(row.Report), &r) == nil {
			out.Rows = append(out.Rows, r.Rows...)
			out.Truncated = r.Truncated
		}
	}
	return out
}

// ListImports returns the latest 50 imports (without their row reasons).
func (s *service) ListImports(ctx context.Context, p *auth.Principal) (*ImportList, error) {
	if err := requireAdmin(p); err != nil {
		return nil, err
	}
	rows, err := s.store.Imports(ctx, 50)
	if err != nil {
		return nil, err
	}
	out := &ImportList{Items: make([]ImportReport, 0, len(rows))}
	for i := range rows {
		out.Items = append(out.Items, *importReport(&rows[i], false))
	}
	return out, nil
}

// ImportMappings returns every mapping.
func (s *service) ImportMappings(ctx context.Context, p *auth.Principal) (*Mappings, error) {
	if err := requireAdmin(p); err != nil {
		return nil, err
	}
	ds, err := s.store.ImportDisplays(ctx, nil)
	if err != nil {
		return nil, err
	}
	ms, err := s.store.ImportMedias(ctx, nil)
	if err != nil {
		return nil, err
	}
	out := &Mappings{Displays: make([]DisplayMapping, 0, len(ds)), Media: make([]MediaMapping, 0, len(ms))}
	for _, d := range ds {
		out.Displays = append(out.Displays, DisplayMapping{Ref: d.Ref, FaceID: d.FaceID})
	}
	for _, m := range ms {
		out.Media = append(out.Media, MediaMapping{Ref: m.Ref, CampaignID: m.CampaignID, CreativeID: m.CreativeID})
	}
	return out, nil
}

func validRef(ref string) bool {
	return ref != "" && utf8.ValidString(ref) && utf8.RuneCountInString(ref) <= 255 && httpx.IsSingleLine(ref)
}

// SetImportMappings sets the mappings named, after checking that each face, campaign and creative
// exists; an empty target removes the mapping. Audited, in one transaction.
func (s *service) SetImportMappings(ctx context.Context, p *auth.Principal, req Mappings) (*Mappings, error) {
	if err := requireAdmin(p); err != nil {
		return nil, err
	}
	if len(req.Displays)+len(req.Media) > MaxMappings {
		return nil, apperr.Field("displays", MsgTooManyMappings)
	}
	var faceIDs, creativeIDs []string
	campaignSeen := map[string]bool{}
	for i, d := range req.Displays {
		if !validRef(d.Ref) {
			return nil, apperr.Field(fmt.Sprintf("displays[%d].ref", i), MsgMappingRef)
		}
		if d.FaceID != "" {
			faceIDs = append(faceIDs, d.FaceID)
		}
	}
	for i, m := range req.Media {
		if !validRef(m.Ref) {
			return nil, apperr.Field(fmt.Sprintf("media[%d].ref", i), MsgMappingRef)
		}
		if m.CreativeID != "" {
			creativeIDs = append(creativeIDs, m.CreativeID)
			if m.CampaignID == "" {
				return nil, apperr.Field(fmt.Sprintf("media[%d].campaign_id", i), MsgMappingCampaign)
			}
			if !campaignSeen[m.CampaignID] {
				campaignSeen[m.CampaignID] = true
				if len(campaignSeen) > 50 {
					return nil, apperr.Field("media", "Map media to at most 50 campaigns at once.")
				}
				// A campaign with no week books nothing a play could count in: as good as none.
				weeks, err := s.deps.Bookings.FindWeeks(ctx, m.CampaignID)
				if err != nil && apperr.CodeOf(err) != apperr.ENOTFOUND && apperr.CodeOf(err) != apperr.EINVALID {
					return nil, err
				}
				if len(weeks) == 0 {
					return nil, apperr.Field(fmt.Sprintf("media[%d].campaign_id", i), MsgMappingCampaign)
				}
			}
		}
	}
	if len(faceIDs) > 0 {
		fs, err := s.deps.Faces.FindFacesByIDs(ctx, faceIDs)
		if err != nil {
			return nil, err
		}
		have := map[string]bool{}
		for _, f := range fs {
			have[f.ID] = true
		}
		for i, d := range req.Displays {
			if d.FaceID != "" && !have[d.FaceID] {
				return nil, apperr.Field(fmt.Sprintf("displays[%d].face_id", i), MsgFaceNotFound)
			}
		}
	}
	if len(creativeIDs) > 0 {
		crs, err := s.deps.Creatives.FindCreativesByIDs(ctx, creativeIDs)
		if err != nil {
			return nil, err
		}
		have := map[string]bool{}
		for _, c := range crs {
			have[c.ID] = true
		}
		for i, m := range req.Media {
			if m.CreativeID != "" && !have[m.CreativeID] {
				return nil, apperr.Field(fmt.Sprintf("media[%d].creative_id", i), MsgMappingCreative)
			}
		}
	}
	now := s.deps.Clock.Now()
	err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		for _, d := range req.Displays {
			var err error
			if d.FaceID == "" {
				err = s.store.DeleteImportDisplay(ctx, d.Ref)
			} else {
				err = s.store.SaveImportDisplay(ctx, store.ImportDisplay{Ref: d.Ref, FaceID: d.FaceID, UpdatedBy: p.UserID, UpdatedAt: now})
			}
			if err != nil {
				return err
			}
		}
		for _, m := range req.Media {
			var err error
			if m.CreativeID == "" {
				err = s.store.DeleteImportMedia(ctx, m.Ref)
			} else {
				err = s.store.SaveImportMedia(ctx, store.ImportMedia{Ref: m.Ref, CampaignID: m.CampaignID, CreativeID: m.CreativeID, UpdatedBy: p.UserID, UpdatedAt: now})
			}
			if err != nil {
				return err
			}
		}
		return s.deps.Audit.Record(ctx, audit.Change{Action: AuditImportMappings, ObjectType: "screens_import_mappings", ObjectID: "",
			After: req})
	})
	if err != nil {
		return nil, err
	}
	return s.ImportMappings(ctx, p)
}

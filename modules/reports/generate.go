package reports

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"marquee/modules/campaigns"
	"marquee/modules/creatives"
	"marquee/modules/reports/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/ids"
)

// Generation: the chosen finished weeks of a campaign become a PDF and a CSV in storage
// and a report row. The files are stored first, then the row is inserted (with whatever else the
// caller writes: the weekly job's run row and email) in one transaction; if anything fails, the
// stored files are deleted, so a failure leaves neither a row nor a file.

// Limits of what one PDF embeds, so that its memory stays bounded whatever a campaign holds.
const (
	maxProofShots    = 120
	maxCreativeShots = 3
	// maxCreativeBytes: a larger creative is embedded as its thumbnail.
	maxCreativeBytes = 3 << 20
)

// generation is one report to make.
type generation struct {
	id       string // the report's id; a new one when empty (the seed gives its own)
	campaign *campaigns.Campaign
	weeks    []campaigns.Week // the campaign's weeks chosen, already checked
	name     string
	userID   string
	source   string
	// inTx, when set, runs in the transaction that inserts the report (the weekly job), with the
	// email's preview when emailPreview asked for one and it could be drawn (else nil).
	inTx         func(ctx context.Context, r *store.Report, pic *emailPicture) error
	emailPreview bool
}

// chooseWeeks checks the requested week ids against the campaign's weeks: at least one, every one
// the campaign's, every one ended before today (B §4), at most 52 calendar weeks.
func chooseWeeks(all []campaigns.Week, weekIDs []string, today dates.Date) ([]campaigns.Week, error) {
	if len(weekIDs) == 0 {
		return nil, apperr.Field("week_ids", MsgWeeksRequired)
	}
	if len(weekIDs) > MaxWeekIDs {
		return nil, apperr.Field("week_ids", MsgTooManyWeeks)
	}
	byID := make(map[string]int, len(all))
	for i := range all {
		byID[all[i].ID] = i
	}
	seen := make(map[string]bool, len(weekIDs))
	starts := map[dates.Date]bool{}
	out := make([]campaigns.Week, 0, len(weekIDs))
	for _, id := range weekIDs {
		if seen[id] {
			continue
		}
		seen[id] = true
		i, ok := byID[id]
		if !ok {
			return nil, apperr.Field("week_ids", MsgWeekNotInCampaign)
		}
		if !all[i].EndAt.Before(today) {
			return nil, apperr.Field("week_ids", MsgWeekNotFinished)
		}
		starts[all[i].StartAt] = true
		out = append(out, all[i])
	}
	if len(starts) > campaigns.MaxDurationWeeks {
		return nil, apperr.Field("week_ids", MsgTooManyWeeks)
	}
	return out, nil
}

// finishedWeeks groups a campaign's ended weeks by calendar week, oldest first (the form's picker).
func finishedWeeks(all []campaigns.Week, today dates.Date) []ReportWeek {
	byStart := map[dates.Date]*ReportWeek{}
	for i := range all {
		w := &all[i]
		if !w.EndAt.Before(today) {
			continue
		}
		rw := byStart[w.StartAt]
		if rw == nil {
			rw = &ReportWeek{StartAt: w.StartAt, EndAt: w.EndAt, WeekIDs: []string{}}
			byStart[w.StartAt] = rw
		}
		rw.WeekIDs = append(rw.WeekIDs, w.ID)
		rw.Faces++
		rw.Planned += w.ProductOoh
		if w.ActImp != nil {
			rw.Delivered += *w.ActImp
		}
	}
	out := make([]ReportWeek, 0, len(byStart))
	for _, rw := range byStart {
		out = append(out, *rw)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].StartAt.Before(out[j].StartAt) })
	return out
}

// generate makes the report's files and row. The caller holds a generation slot.
func (s *service) generate(ctx context.Context, g generation) (*store.Report, error) {
	weeks := g.weeks
	sortWeeks(weeks)
	figs := computeFigures(weeks)
	now := s.deps.Clock.Now()
	start, end := weeks[0].StartAt, weeks[0].EndAt
	for i := range weeks {
		if weeks[i].StartAt.Before(start) {
			start = weeks[i].StartAt
		}
		if weeks[i].EndAt.After(end) {
			end = weeks[i].EndAt
		}
	}
	name := strings.TrimSpace(g.name)
	if name == "" {
		name = defaultName(g.campaign.Name, start, end)
	}
	doc := &document{name: name, campaign: g.campaign, companyName: g.campaign.CompanyName, start: start, end: end,
		figures: figs, weeks: weeks, generatedAt: now}
	var err error
	if doc.proofs, err = s.proofShots(ctx, weeks); err != nil {
		return nil, err
	}
	if doc.creatives, err = s.creativeShots(ctx, g.campaign, weeks); err != nil {
		return nil, err
	}
	if doc.proofCodes, err = s.deps.Campaigns.ProofCodesOf(ctx, g.campaign.ID); err != nil { // the weeks' proof-of-play codes
		return nil, err
	}
	doc.verifyURL = strings.TrimRight(s.deps.BaseURL, "/") + "/verify/"
	doc.previews = s.facePreviews(ctx, g.campaign, weeks, figs, g.emailPreview)
	pdf, err := renderPDF(doc)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	pic := doc.previews.email
	doc.proofs, doc.creatives, doc.previews = nil, nil, nil // the PDF holds them now; let them go
	csvBytes, err := renderCSV(weeks)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	figJSON, err := json.Marshal(figs)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	weekIDs := make([]string, len(weeks))
	for i := range weeks {
		weekIDs[i] = weeks[i].ID
	}
	idsJSON, _ := json.Marshal(weekIDs)

	id := g.id
	if id == "" {
		id = ids.New()
	}
	base := fileSlug(name)
	prefix := "reports/" + g.campaign.CompanyID + "/" + id + "/"
	r := &store.Report{ID: id, Name: name, CompanyID: g.campaign.CompanyID, CompanyName: g.campaign.CompanyName,
		CampaignID: g.campaign.ID, CampaignName: g.campaign.Name, UserID: g.userID, Source: g.source,
		WeekIDs: string(idsJSON), WeeksCount: len(figs.Weeks), PeriodStart: start, PeriodEnd: end,
		FileKey: prefix + base + ".pdf", CSVKey: prefix + base + ".csv", Filename: base + ".pdf", Size: int64(len(pdf)),
		Figures: string(figJSON), CreatedAt: now, UpdatedAt: now}
	if err := s.deps.Storage.Put(ctx, r.FileKey, bytes.NewReader(pdf), int64(len(pdf)), "application/pdf"); err != nil {
		s.deleteObjects(ctx, r.FileKey)
		return nil, apperr.Internal(err)
	}
	if err := s.deps.Storage.Put(ctx, r.CSVKey, bytes.NewReader(csvBytes), int64(len(csvBytes)), "text/csv; charset=utf-8"); err != nil {
		s.deleteObjects(ctx, r.FileKey, r.CSVKey)
		return nil, apperr.Internal(err)
	}
	err = db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		if err := s.store.CreateReports(ctx, []store.Report{*r}); err != nil {
			return err
		}
		s.publishReady(ctx, r)
		if g.inTx != nil {
			return g.inTx(ctx, r, pic)
		}
		return nil
	})
	if err != nil {
		s.deleteObjects(ctx, r.FileKey, r.CSVKey)
		return nil, err
	}
	return r, nil
}

// deleteObjects removes stored objects; a failure is logged (an unreferenced object, never a row
// without its file).
func (s *service) deleteObjects(ctx context.Context, keys ...string) {
	for _, k := range keys {
		if k == "" {
			continue
		}
		if err := s.deps.Storage.Delete(context.WithoutCancel(ctx), k); err != nil {
			s.deps.Log.ErrorContext(ctx, "reports: delete object", "key", k, "err", err)
		}
	}
}

// defaultName names a report after its campaign and period.
func defaultName(campaign string, start, end dates.Date) string {
	name := fmt.Sprintf("%s - %s to %s", campaign, start.Format("Jan 02"), end.Format("Jan 02, 2006"))
	if r := []rune(name); len(r) > MaxNameLen {
		name = string(r[:MaxNameLen])
	}
	return name
}

var slugDrop = regexp.MustCompile(`[^a-z0-9]+`)

// fileSlug is a safe file name made from the report's name.
func fileSlug(name string) string {
	s := strings.Trim(slugDrop.ReplaceAllString(strings.ToLower(name), "-"), "-")
	if len(s) > 80 {
		s = strings.Trim(s[:80], "-")
	}
	if s == "" {
		s = "report"
	}
	return s
}

// proofKey is the storage key in a proof's address (/proof/image?image=<key>).
func proofKey(u string) string {
	parsed, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return parsed.Query().Get("image")
}

// proofShots reads the thumbnails of the weeks' proofs (one batch query for the files, then one
// object each), by week and face.
func (s *service) proofShots(ctx context.Context, weeks []campaigns.Week) ([]proofShot, error) {
	type ref struct {
		key string
		w   *campaigns.Week
		at  time.Time
	}
	var refs []ref
	for i := range weeks {
		for _, c := range weeks[i].Creatives {
			if c.CreativeType != campaigns.CreativeTypeProof || len(refs) == maxProofShots {
				continue
			}
			if k := proofKey(c.URL); k != "" {
				refs = append(refs, ref{key: k, w: &weeks[i], at: c.CreatedAt})
			}
		}
	}
	if len(refs) == 0 {
		return nil, nil
	}
	keys := make([]string, len(refs))
	for i, r := range refs {
		keys[i] = r.key
	}
	byKey, err := s.filesByKey(ctx, keys)
	if err != nil {
		return nil, err
	}
	out := make([]proofShot, 0, len(refs))
	for _, r := range refs {
		f := byKey[r.key]
		if f == nil {
			continue
		}
		key := f.ThumbKey
		if key == "" {
			key = f.Key
		}
		data, typ := s.readImage(ctx, key)
		if data == nil {
			continue
		}
		out = append(out, proofShot{data: data, imageType: typ, location: r.w.Product.LocationName, face: r.w.Product.Face,
			weekStart: r.w.StartAt, weekEnd: r.w.EndAt, takenAt: r.at})
	}
	return out, nil
}

// creativeShots reads the creatives that ran on the weeks, the most shown first.
func (s *service) creativeShots(ctx context.Context, c *campaigns.Campaign, weeks []campaigns.Week) ([]creativeShot, error) {
	count := map[string]int{}
	for i := range weeks {
		id := weeks[i].CreativeID
		if id == "" {
			id = c.CreativeID
		}
		if id != "" {
			count[id]++
		}
	}
	if len(count) == 0 {
		return nil, nil
	}
	idList := make([]string, 0, len(count))
	for id := range count {
		idList = append(idList, id)
	}
	sort.Slice(idList, func(i, j int) bool {
		if count[idList[i]] != count[idList[j]] {
			return count[idList[i]] > count[idList[j]]
		}
		return idList[i] < idList[j]
	})
	if len(idList) > maxCreativeShots {
		idList = idList[:maxCreativeShots]
	}
	crs, err := s.deps.Creatives.FindCreativesByIDs(ctx, idList)
	if err != nil {
		return nil, err
	}
	keyOf := map[string]string{}
	var keys []string
	for _, cr := range crs {
		if cr.Company == c.CompanyID && cr.URL != "" {
			keyOf[cr.ID] = cr.URL
			keys = append(keys, cr.URL)
		}
	}
	byKey, err := s.filesByKey(ctx, keys)
	if err != nil {
		return nil, err
	}
	var out []creativeShot
	for _, id := range idList {
		f := byKey[keyOf[id]]
		if f == nil {
			continue
		}
		// The original when it is small and a type the PDF takes; a TIFF's web copy; otherwise
		// the thumbnail.
		key := f.ThumbKey
		switch {
		case f.DisplayKey != "":
			key = f.DisplayKey
		case f.Size <= maxCreativeBytes && (f.ContentType == "image/jpeg" || f.ContentType == "image/png"):
			key = f.Key
		}
		data, typ := s.readImage(ctx, key)
		if data != nil {
			out = append(out, creativeShot{data: data, imageType: typ, faceWeeks: count[id]})
		}
	}
	return out, nil
}

// readImage reads a stored JPEG or PNG; nil for anything else or a missing object (a report does
// not fail for a lost photo).
func (s *service) readImage(ctx context.Context, key string) ([]byte, string) {
	if key == "" {
		return nil, ""
	}
	rc, obj, err := s.deps.Storage.Get(ctx, key)
	if err != nil {
		s.deps.Log.WarnContext(ctx, "reports: image for a report", "key", key, "err", err)
		return nil, ""
	}
	defer rc.Close()
	if obj.Size > maxCreativeBytes {
		return nil, ""
	}
	data, err := io.ReadAll(io.LimitReader(rc, maxCreativeBytes+1))
	if err != nil || len(data) > maxCreativeBytes {
		return nil, ""
	}
	switch http.DetectContentType(data) {
	case "image/jpeg":
		return data, "JPG"
	case "image/png":
		return data, "PNG"
	}
	return nil, ""
}

// renderCSV writes the week-by-face figures of the PDF, one row per face and week, with a totals
// row. Text cells that a spreadsheet would read as a formula are quoted with a leading apostrophe.
func renderCSV(weeks []campaigns.Week) ([]byte, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write([]string{"week_start", "week_end", "face_id", "location_name", "market", "city", "face",
		"planned_impressions", "delivered_impressions", "difference", "delivery_pct", "recorded", "spend"})
	var total Figures
	for i := range weeks {
		wk := &weeks[i]
		var f Figures
		f.add(wk)
		f.finish()
		total.add(wk)
		recorded := "yes"
		if wk.ActImp == nil {
			recorded = "no"
		}
		_ = w.Write([]string{wk.StartAt.String(), wk.EndAt.String(), wk.ProductID, cell(wk.Product.LocationName), cell(wk.Product.Market),
			cell(wk.Product.City), cell(wk.Product.Face), strconv.FormatInt(f.Planned, 10), strconv.FormatInt(f.Delivered, 10),
			strconv.FormatInt(f.Difference, 10), pctCell(f), recorded, f.Spend.DollarString()})
	}
	total.finish()
	_ = w.Write([]string{"total", "", "", "", "", "", "", strconv.FormatInt(total.Planned, 10), strconv.FormatInt(total.Delivered, 10),
		strconv.FormatInt(total.Difference, 10), pctCell(total), "", total.Spend.DollarString()})
	w.Flush()
	return buf.Bytes(), w.Error()
}

func pctCell(f Figures) string {
	if f.Planned <= 0 {
		return ""
	}
	return strconv.FormatFloat(f.DeliveryPct, 'f', 1, 64)
}

// cell guards a text cell against formula injection (OWASP "CSV injection").
func cell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// filesByKey finds the stored files of the keys (creatives), by key.
func (s *service) filesByKey(ctx context.Context, keys []string) (map[string]*creatives.File, error) {
	files, err := s.deps.Creatives.FindFilesByKeys(ctx, keys)
	if err != nil {
		return nil, err
	}
	byKey := make(map[string]*creatives.File, len(files))
	for _, f := range files {
		byKey[f.Key] = f
	}
	return byKey, nil
}

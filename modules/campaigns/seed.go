package campaigns

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"slices"
	"time"

	"github.com/google/uuid"

	"marquee/modules/billing"
	"marquee/modules/campaigns/internal/store"
	"marquee/modules/creatives"
	"marquee/modules/locations"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/money"
	"marquee/platform/server"
)

// Demo data (marquee seed --demo): campaigns in every status for the demo advertiser and the
// partner companies, with past weeks that have actual impressions and proofs, so the charts, the
// lists, the admin grid and the reports look real. Ids are derived from names, the dates from the
// day of seeding; a second run finds the campaigns and does nothing.

var demoNamespace = uuid.MustParse("8f0f7c52-6c35-4f0e-9a53-2f1b0c6d6a11")

func demoID(kind, name string) string {
	return uuid.NewSHA1(demoNamespace, []byte(kind+":"+name)).String()
}

// demoIDAt is demoID shaped as a UUIDv7 of t: its first 48 bits are t's Unix milliseconds, so
// ids sort as their times do.
func demoIDAt(t time.Time, kind, name string) string {
	u := uuid.NewSHA1(demoNamespace, []byte(kind+":"+name))
	ms := uint64(t.UnixMilli())
	for i := 0; i < 6; i++ {
		u[i] = byte(ms >> (40 - 8*i)) // #nosec G115 -- taking one byte of the timestamp at a time is the point
	}
	u[6] = 0x70 | (u[6] & 0x0f) // version 7
	u[8] = 0x80 | (u[8] & 0x3f) // RFC 4122 variant
	return u.String()
}

// demoCampaign is one demo campaign: its first week relative to this week's Monday, its weeks,
// faces, status and frequency.
type demoCampaign struct {
	account   string // demo account role
	name      string
	market    string
	faces     int
	faceSkip  int
	offset    int // first week, in weeks from this week's Monday
	weeks     int
	status    string
	frequency string
	payment   string // payment_status
	message   string
}

var demoCampaigns = []demoCampaign{
	{"advertiser", "Holiday Coffee Push", "SF Bay Area", 4, 20, -3, 6, StatusActive, FrequencyWeekly, "succeeded", ""},
	{"advertiser", "Always On Brand", "SF Bay Area", 2, 30, -2, 3, StatusActive, FrequencyOngoing, "succeeded", ""},
	{"advertiser", "One Week Blitz", "Los Angeles", 3, 0, 0, 1, StatusActive, FrequencyOneTime, "succeeded", ""},
	{"advertiser", "Weekend Brunch", "SF Bay Area", 3, 40, -1, 4, StatusPaused, FrequencyWeekly, "succeeded", ""},
	{"advertiser", "Summer Sale", "Los Angeles", 3, 10, -8, 4, StatusCompleted, FrequencyWeekly, "succeeded", ""},
	{"advertiser", "Back to School", "SF Bay Area", 2, 50, -12, 2, StatusCompleted, FrequencyWeekly, "succeeded", ""},
	{"advertiser", "Spring Launch", "SF Bay Area", 3, 60, 2, 2, StatusPending, FrequencyWeekly, "pending", ""},
	{"advertiser", "New Menu", "Los Angeles", 2, 20, 2, 1, StatusPending, FrequencyOneTime, "failed", "Your card was declined."},
	{"ambassador", "Grand Opening", "Chicago", 3, 0, -2, 4, StatusActive, FrequencyWeekly, "succeeded", ""},
	{"ambassador", "Fall Clearance", "Chicago", 2, 10, -7, 3, StatusCompleted, FrequencyWeekly, "succeeded", ""},
	{"certified", "Open House", "Houston", 3, 0, -1, 3, StatusActive, FrequencyWeekly, "succeeded", ""},
	{"certified", "Holiday Hours", "Houston", 2, 10, 1, 2, StatusPaused, FrequencyWeekly, "succeeded", ""},
	{"certified", "Summer Open House", "Houston", 2, 20, 3, 2, StatusActive, FrequencyWeekly, "succeeded", ""},
	// An ongoing campaign of a company without a card, on account credit (pacingCredit),
	// so its pacing shows the finish the credit allows.
	{"certified", "Open House Always On", "Houston", 2, 30, -1, 2, StatusActive, FrequencyOngoing, "succeeded", ""},
}

// pacingCreditCampaign is the demo campaign whose company gets account credit for two and a half
// of its weeks (docs/delivery-assurance.md "The projected finish").
const pacingCreditCampaign = "Open House Always On"

// SeedDemo implements server.DemoSeeder.
func (s *service) SeedDemo(ctx context.Context, demo server.DemoAccounts) (string, error) {
	made, there, note := 0, 0, ""
	thisWeek := dates.Today(s.deps.Clock).WeekStart()
	faces := map[string][]locations.Location{}
	for _, d := range demoCampaigns {
		acc, ok := demo[d.account]
		if !ok {
			continue
		}
		id := demoID("campaign", d.account+":"+d.name)
		if rows, err := s.store.CampaignsByIDs(ctx, []string{id}); err != nil {
			return "", err
		} else if len(rows) > 0 {
			there++
			continue
		}
		if faces[d.market] == nil {
			fs, err := marketFaces(ctx, s.deps.Locations, d.market)
			if err != nil {
				return "", err
			}
			faces[d.market] = fs
		}
		fs := faces[d.market]
		if len(fs) < d.faceSkip+d.faces {
			continue
		}
		if err := s.seedCampaign(ctx, id, acc, d, fs[d.faceSkip:d.faceSkip+d.faces], thisWeek.AddWeeks(d.offset), true); err != nil {
			return "", fmt.Errorf("campaigns: demo campaign %s: %w", d.name, err)
		}
		if d.name == pacingCreditCampaign {
			var weekly money.Cents
			for _, f := range fs[d.faceSkip : d.faceSkip+d.faces] {
				weekly += f.Value
			}
			if _, err := s.deps.Billing.ApplyCredit(ctx, billing.CreditRequest{Key: "demo:pacing-credit:" + id, CompanyID: acc.CompanyID,
				Amount: weekly * 5 / 2, Description: "Demo credit", CampaignRef: id}); err != nil {
				return "", fmt.Errorf("campaigns: demo credit: %w", err)
			}
		}
		if d.account+":"+d.name == demoMakeGoodCampaign {
			n, err := s.assure.seedMakeGood(ctx, id)
			if err != nil {
				return "", fmt.Errorf("campaigns: demo make-good: %w", err)
			}
			note += n
		}
		made++
	}
	chain, err := s.assure.seedProofChain(ctx) // a verification code that validates
	if err != nil {
		return "", err
	}
	if chain != "" {
		chain = "; " + chain
	}
	return fmt.Sprintf("campaigns: %d demo campaigns created, %d already there%s", made, there, chain) + note, nil
}

// seedCampaign writes one demo campaign: its row, its weeks (past weeks with actual impressions
// and a proof each; the weeks not ended booked through locations), its charge rows.
// withProofs false leaves the past weeks without proof images (a partner's client campaign: the seed
// stays quick).
func (s *service) seedCampaign(ctx context.Context, id string, acc server.DemoAccount, d demoCampaign, fs []locations.Location, start dates.Date, withProofs bool) error {
	now := s.deps.Clock.Now()
	today := dates.Today(s.deps.Clock)
	var weekly int64
	var ooh int64
	for _, f := range fs {
		weekly += int64(f.Value)
		ooh += f.Ooh
	}
	c := store.Campaign{ID: id, CompanyID: acc.CompanyID, UserID: acc.UserID, CreateKey: "demo:" + id, Fingerprint: "demo",
		Name: d.name, Status: d.status, Strategy: StrategyMarket, Frequency: d.frequency, StartDate: start,
		EndDate: start.AddDays(7*d.weeks - 1), Duration: max(d.weeks, 1), WeeklyBudget: weekly, TotalBudget: weekly * int64(d.weeks),
		ImpressionCount: ooh, Markets: encodeList([]string{d.market}), Cities: encodeList(nil),
		PaymentStatus: d.payment, PaymentMessage: d.message, CreatedAt: now.Add(-daysAgo(max(-d.offset, 0)*7 + len(d.name))), UpdatedAt: now}
	if d.frequency != FrequencyWeekly {
		c.Duration = 1
	}
	var rows []store.Week
	var bookable []locations.FaceWeek
	var proofWeeks []string
	var actTotal int64
	for i, wk := range start.Weeks(d.weeks) {
		for j, f := range fs {
			w := store.Week{ID: demoID("week", fmt.Sprintf("%s:%s:%s", id, f.ID, wk)), CampaignID: id, CompanyID: acc.CompanyID, FaceID: f.ID,
				StartAt: wk, EndAt: wk.AddDays(6), Status: WeekActive, OfferPrice: int64(f.Value), AskingPrice: int64(f.Value), Ooh: f.Ooh,
				LocationName: f.LocationName, Market: f.Market, City: f.City, Face: f.Face, Lat: f.Lat, Lng: f.Lng, Snapshot: f.NewLocationSnapshot,
				CreatedAt: now, UpdatedAt: now}
			if wk.AddDays(8).Before(today) || wk.AddDays(8).Equal(today) {
				// rounded up: a floor could fall a fraction under the 90 % make-good threshold
				v := (f.Ooh*int64(90+(i*7+j*13)%35) + 99) / 100
				w.ActImp = &v
				actTotal += v
				if j == 0 && withProofs {
					proofWeeks = append(proofWeeks, w.ID)
				}
			}
			if !w.EndAt.Before(today) && d.status != StatusCompleted {
				bookable = append(bookable, locations.FaceWeek{FaceID: f.ID, Week: wk})
			}
			rows = append(rows, w)
		}
	}
	c.TotalActImp = actTotal
	var charges []store.Charge
	for _, wk := range start.Weeks(d.weeks) {
		if d.payment != "succeeded" || (d.status == StatusPaused && wk.After(today)) || lockedWeek(today).Before(wk) {
			continue
		}
		charges = append(charges, store.Charge{ID: demoID("charge", id+":"+wk.String()), CampaignID: id, CompanyID: acc.CompanyID, Week: wk,
			Amount: weekly, Status: "succeeded", CreatedAt: now, UpdatedAt: now})
		c.TotalCost += weekly
	}
	proofs, err := s.seedProofs(ctx, acc, d.name, len(proofWeeks))
	if err != nil {
		return err
	}
	return db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		if len(bookable) > 0 {
			rr, err := s.deps.Locations.Book(ctx, locations.ReserveRequest{Key: "campaign:" + id, CompanyID: acc.CompanyID, Ref: id, Items: bookable})
			if err == nil {
				spot := map[string]locations.Spot{}
				for _, sp := range rr.Spots {
					spot[sp.FaceID+sp.Week.String()] = sp
				}
				for i := range rows {
					if sp, ok := spot[rows[i].FaceID+rows[i].StartAt.String()]; ok {
						rows[i].SpotID, rows[i].SpotKey = sp.ID, sp.Key
					}
				}
			}
			// A demo week that is sold out stays a row without a spot: the demo still shows it.
		}
		if err := s.store.Create(ctx, &c); err != nil {
			return err
		}
		if err := s.store.InsertWeekRows(ctx, rows); err != nil {
			return err
		}
		for i := range charges {
			if err := s.store.Create(ctx, &charges[i]); err != nil {
				return err
			}
		}
		for i, wid := range proofWeeks {
			f := proofs[i]
			wc := store.WeekCreative{ID: demoID("proof", wid), WeekID: wid, CampaignID: id, CreativeType: CreativeTypeProof,
				FileKey: f.Key, URL: proofURL(f.Key, false), CreatedAt: now}
			if f.ThumbKey != "" {
				wc.Thumb = proofURL(f.Key, true)
			}
			if err := s.store.Create(ctx, &wc); err != nil {
				return err
			}
		}
		return nil
	})
}

// SeedClientCampaign makes a weekly demo campaign of a partner's client company (partners' demo
// data: its bonuses come from real campaigns, so the grids show their names): from the
// week of start, on two faces of the market, completed once its weeks are over. The id comes from
// the company and the name; a second run finds it and makes nothing.
func (s *service) SeedClientCampaign(ctx context.Context, companyID, userID, name, market string, start dates.Date, weeks, faceSkip int) (string, error) {
	// Time-ordered like a real campaign's UUIDv7 (partners sort "newest first" by the id), and
	// derived from the company and the name, so a second run finds it.
	id := demoIDAt(start.WeekStart().Time(), "campaign", companyID+":"+name)
	if rows, err := s.store.CampaignsByIDs(ctx, []string{id}); err != nil {
		return "", err
	} else if len(rows) > 0 {
		return id, nil
	}
	fs, err := marketFaces(ctx, s.deps.Locations, market)
	if err != nil {
		return "", err
	}
	// Two faces of the market from faceSkip on (fewer when the catalogue is small, as in tests).
	n := min(2, len(fs))
	skip := 0
	if len(fs) > n {
		skip = faceSkip % (len(fs) - n + 1)
	}
	weeks = min(max(weeks, 1), MaxDurationWeeks)
	first := start.WeekStart()
	status := StatusCompleted
	if !first.AddWeeks(weeks).Before(dates.Today(s.deps.Clock)) {
		status = StatusActive
	}
	// offset (weeks before this one) dates the campaign's creation at its start.
	offset := -int(dates.Today(s.deps.Clock).WeekStart().Time().Sub(first.Time()).Hours() / 24 / 7)
	d := demoCampaign{name: name, market: market, faces: n, offset: offset, weeks: weeks, status: status, frequency: FrequencyWeekly, payment: "succeeded"}
	acc := server.DemoAccount{CompanyID: companyID, UserID: userID}
	if err := s.seedCampaign(ctx, id, acc, d, fs[skip:skip+n], first, false); err != nil {
		return "", fmt.Errorf("campaigns: demo client campaign %s: %w", name, err)
	}
	return id, nil
}

func daysAgo(days int) time.Duration { return time.Duration(days) * 24 * time.Hour }

// seedProofs stores n proof images (a billboard-like picture) for the account's company.
func (s *service) seedProofs(ctx context.Context, acc server.DemoAccount, name string, n int) ([]*creatives.File, error) {
	out := make([]*creatives.File, 0, n)
	for i := 0; i < n; i++ {
		var buf bytes.Buffer
		if err := png.Encode(&buf, proofImage(i)); err != nil {
			return nil, err
		}
		f, err := s.deps.Creatives.StoreFile(ctx, creatives.StoreFileRequest{CompanyID: acc.CompanyID, Kind: creatives.KindProof,
			OriginalName: fmt.Sprintf("proof-%s-%d.png", name, i+1)}, &buf)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// proofImage draws a small photo-like proof: sky, a board with an ad, a pole and the ground.
func proofImage(i int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, 320, 200))
	ad := []color.RGBA{{200, 60, 50, 255}, {40, 110, 190, 255}, {50, 150, 90, 255}, {220, 160, 40, 255}}[i%4]
	for y := 0; y < 200; y++ {
		for x := 0; x < 320; x++ {
			c := color.RGBA{uint8(150 + y/4), uint8(190 + y/8), 240, 255}
			switch {
			case y > 170:
				c = color.RGBA{90, 100, 90, 255}
			case x >= 150 && x < 170 && y >= 110:
				c = color.RGBA{70, 70, 70, 255}
			case x >= 40 && x < 280 && y >= 30 && y < 110:
				c = color.RGBA{30, 30, 30, 255}
				if x >= 46 && x < 274 && y >= 36 && y < 104 {
					c = ad
					if (x/20+y/20+i/4)%5 == 0 || (x-46)/4 == i%57 {
						c = color.RGBA{250, 250, 250, 255}
					}
				}
			}
			img.Set(x, y, c)
		}
	}
	return img
}

// GenerateOptions says what GenerateCampaigns makes (benchmarks).
type GenerateOptions struct {
	CompanyID, UserID string
	// Campaigns to make, each with Weeks weeks from Start on FacesPer faces (taken in turn from
	// Faces): Campaigns × Weeks × FacesPer week rows.
	Campaigns, Weeks, FacesPer int
	Faces                      []locations.Location
	Start                      dates.Date
	// Statuses are given in turn (all active when empty); Frequency is weekly when empty.
	Statuses  []string
	Frequency string
	// ChargedBefore records the weeks before it as charged (succeeded), as the creation and the
	// weekly job would have.
	ChargedBefore dates.Date
	// NamePrefix names the campaigns "<prefix> <n>".
	NamePrefix string
	// CreativeID, when set, is every week's creative (what a paired screen plays).
	CreativeID string
	// ProofsPerCampaign adds a proof image to the first face of each of the campaign's first weeks
	// that have actual impressions, up to this many (the report benchmark's 52 proofs).
	ProofsPerCampaign int
}

// GenerateCampaigns inserts campaigns with their weeks and charges in batches, without booking
// spots (the benchmarks' 10,000 campaigns and 500,000 weeks). It answers the campaign ids.
func (s *service) GenerateCampaigns(ctx context.Context, o GenerateOptions) ([]string, error) {
	if len(o.Faces) == 0 || o.Campaigns < 1 || o.Weeks < 1 || o.FacesPer < 1 {
		return nil, fmt.Errorf("campaigns: generate needs faces, campaigns, weeks and faces per campaign")
	}
	if len(o.Statuses) == 0 {
		o.Statuses = []string{StatusActive}
	}
	if o.Frequency == "" {
		o.Frequency = FrequencyWeekly
	}
	now := s.deps.Clock.Now()
	out := make([]string, 0, o.Campaigns)
	const chunk = 250
	for first := 0; first < o.Campaigns; first += chunk {
		var cs []store.Campaign
		var ws []store.Week
		var chs []store.Charge
		var wcs []store.WeekCreative
		for i := first; i < min(first+chunk, o.Campaigns); i++ {
			proofs := 0
			id := demoID("generated", fmt.Sprintf("%s:%s:%d", o.CompanyID, o.NamePrefix, i))
			out = append(out, id)
			fs := make([]locations.Location, o.FacesPer)
			var weekly, ooh int64
			for j := range fs {
				fs[j] = o.Faces[(i*o.FacesPer+j)%len(o.Faces)]
				weekly += int64(fs[j].Value)
				ooh += fs[j].Ooh
			}
			c := store.Campaign{ID: id, CompanyID: o.CompanyID, UserID: o.UserID, CreateKey: "generated:" + id, Fingerprint: "generated",
				Name: fmt.Sprintf("%s %d", o.NamePrefix, i), Status: o.Statuses[i%len(o.Statuses)], Strategy: StrategyMarket,
				Frequency: o.Frequency, StartDate: o.Start, EndDate: o.Start.AddDays(7*o.Weeks - 1), Duration: o.Weeks,
				WeeklyBudget: weekly, TotalBudget: weekly * int64(o.Weeks), ImpressionCount: ooh, Markets: encodeList([]string{fs[0].Market}),
				Cities: encodeList(nil), PaymentStatus: "succeeded", CreatedAt: now.Add(-time.Duration(i) * time.Minute), UpdatedAt: now}
			for k, wk := range o.Start.Weeks(o.Weeks) {
				for _, f := range fs {
					w := store.Week{ID: demoID("generated-week", fmt.Sprintf("%s:%s:%s", id, f.ID, wk)), CampaignID: id, CompanyID: o.CompanyID,
						FaceID: f.ID, StartAt: wk, EndAt: wk.AddDays(6), Status: WeekActive, OfferPrice: int64(f.Value), AskingPrice: int64(f.Value),
						Ooh: f.Ooh, LocationName: f.LocationName, Market: f.Market, City: f.City, Face: f.Face, Lat: f.Lat, Lng: f.Lng,
						Snapshot: f.NewLocationSnapshot, CreativeID: o.CreativeID, CreatedAt: now, UpdatedAt: now}
					if wk.AddDays(8).Before(dates.Today(s.deps.Clock)) {
						v := (f.Ooh*int64(90+(i+k)%30) + 99) / 100 // rounded up: never under the make-good threshold
						w.ActImp = &v
						c.TotalActImp += v
						if f.ID == fs[0].ID && proofs < o.ProofsPerCampaign {
							wcs = append(wcs, store.WeekCreative{ID: demoID("generated-proof", w.ID), WeekID: w.ID, CampaignID: id,
								CreativeType: CreativeTypeProof, CreatedAt: now})
							proofs++
						}
					}
					ws = append(ws, w)
				}
				if wk.Before(o.ChargedBefore) {
					chs = append(chs, store.Charge{ID: demoID("generated-charge", id+":"+wk.String()), CampaignID: id, CompanyID: o.CompanyID,
						Week: wk, Amount: weekly, Status: "succeeded", CreatedAt: now, UpdatedAt: now})
					c.TotalCost += weekly
				}
			}
			cs = append(cs, c)
		}
		// One distinct photo per proof (the PDF would store identical images once).
		if len(wcs) > 0 {
			ps, err := s.seedProofs(ctx, server.DemoAccount{CompanyID: o.CompanyID}, o.NamePrefix, len(wcs))
			if err != nil {
				return nil, err
			}
			for i := range wcs {
				wcs[i].FileKey, wcs[i].URL, wcs[i].Thumb = ps[i].Key, proofURL(ps[i].Key, false), proofURL(ps[i].Key, true)
			}
		}
		err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
			if err := s.store.InsertCampaigns(ctx, cs); err != nil {
				return err
			}
			if err := s.store.InsertWeekRows(ctx, ws); err != nil {
				return err
			}
			for i := range wcs {
				if err := s.store.Create(ctx, &wcs[i]); err != nil {
					return err
				}
			}
			if len(chs) > 0 {
				return s.store.InsertCharges(ctx, chs)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, s.store.Analyze(ctx)
}

// marketFaces are a market's faces by id, so that the seeds pick the same ones on every run.
func marketFaces(ctx context.Context, inv Inventory, market string) ([]locations.Location, error) {
	fs, err := inv.Locations(ctx, locations.LocationQuery{Markets: []string{market}})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(fs, func(a, b locations.Location) int {
		if a.ID < b.ID {
			return -1
		}
		return 1
	})
	return fs, nil
}

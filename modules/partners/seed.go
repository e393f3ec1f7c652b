package partners

import (
	"context"
	"fmt"
	"time"

	"marquee/modules/billing"
	"marquee/modules/identity"
	"marquee/modules/partners/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/ids"
	"marquee/platform/money"
	"marquee/platform/server"
)

// demoClient is a client company of a demo partner: linked monthsAgo months ago (so the first two
// of the ambassador have expired links), invited ones have not set up their account yet.
type demoClient struct {
	partner, company, email, first, last string
	monthsAgo                            int
	invited                              bool
	source                               string
}

var demoClients = []demoClient{
	{"ambassador", "Harbor Fitness", "owner@harborfitness.example", "Hannah", "Reyes", 14, false, SourceInvite},
	{"ambassador", "Lakeside Dental", "office@lakesidedental.example", "Luis", "Ortega", 13, false, SourceReferral},
	{"ambassador", "Copper Kettle Cafe", "hello@copperkettle.example", "Chloe", "Bennett", 9, false, SourceInvite},
	{"ambassador", "Summit Realty", "team@summitrealty.example", "Sam", "Walker", 5, false, SourceInvite},
	{"ambassador", "Bright Paws Vet", "care@brightpaws.example", "Priya", "Shah", 2, false, SourceReferral},
	{"ambassador", "Northside Books", "shop@northsidebooks.example", "Noah", "Kim", 0, true, SourceInvite},
	{"certified", "Riverbend Auto", "sales@riverbendauto.example", "Rita", "Gomez", 11, false, SourceReferral},
	{"certified", "Peak Yoga Studio", "namaste@peakyoga.example", "Pete", "Morris", 6, false, SourceReferral},
}

// seedDemo is server.DemoSeeder (Module.SeedDemo): the demo ambassador's and certified partner's clients
// (some links expired, one client still invited), the certified user's certificate, and bonuses
// over the last 14 months from real charges of the clients' cards. Running it again changes
// nothing: the clients are found by email and the charges by their keys.
func (s *service) seedDemo(ctx context.Context, demo server.DemoAccounts) (string, error) {
	partners := map[string]*store.Partner{}
	for _, role := range []string{"ambassador", "certified"} {
		acc, ok := demo[role]
		if !ok {
			return "", fmt.Errorf("partners demo: no %s account", role)
		}
		c, err := s.deps.Identity.FindCompanyByID(ctx, acc.CompanyID)
		if err != nil {
			return "", err
		}
		p, err := s.ensurePartner(ctx, c.ID, c.Type)
		if err != nil || p == nil {
			return "", fmt.Errorf("partners demo: %s is not a partner company: %v", role, err)
		}
		partners[role] = p
	}
	if err := s.seedCertificate(ctx, demo["certified"]); err != nil {
		return "", err
	}
	clients, charges := 0, 0
	for i, dc := range demoClients {
		created, n, err := s.seedClient(ctx, partners[dc.partner], dc, i)
		if err != nil {
			return "", fmt.Errorf("partners demo %s: %w", dc.company, err)
		}
		charges += n
		if created {
			clients++
		}
	}
	return fmt.Sprintf("partners: %d demo clients created, %d charges with bonuses accrued", clients, charges), nil
}

func (s *service) seedCertificate(ctx context.Context, acc server.DemoAccount) error {
	if _, err := s.certificate(ctx, acc.UserID); err == nil {
		return nil
	}
	issued := dates.Of(s.deps.Clock.Now().AddDate(0, -4, 0))
	return db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		if err := s.deps.Identity.SetCertified(ctx, acc.UserID, true); err != nil {
			return err
		}
		return s.store.Create(ctx, &store.Certificate{UserID: acc.UserID, CompanyID: acc.CompanyID,
			Number: fmt.Sprintf("MQ-%d-DEMO01", issued.Time().Year()), IssuedOn: issued, Score: 94, CreatedAt: s.deps.Clock.Now()})
	})
}

// seedClient makes the client, its link and its charges. The charges are real (billing's sandbox
// gateway, the client's test card); each accrues in the month it stands for, and its entry makes
// the later billing.charge_settled event a no-op.
func (s *service) seedClient(ctx context.Context, p *store.Partner, dc demoClient, n int) (bool, int, error) {
	now := s.deps.Clock.Now()
	start := dates.Of(now.AddDate(0, -dc.monthsAgo, -3))
	u, err := s.deps.Identity.FindUserByEmail(ctx, dc.email)
	created := false
	if apperr.CodeOf(err) == apperr.ENOTFOUND {
		created = true
		password := ""
		if !dc.invited {
			password = "demo client " + ids.Token()[:16]
		}
		err = db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
			u, _, err = s.deps.Identity.CreateUser(ctx, identity.CreateUserRequest{Email: dc.email, Password: password, FirstName: dc.first,
				LastName: dc.last, Role: identity.RoleUser, CompanyName: dc.company, Onboarded: true})
			if err != nil {
				return err
			}
			invited := ""
			if dc.source == SourceInvite {
				invited = u.ID
			}
			if err := s.store.Create(ctx, &store.Link{ID: ids.New(), PartnerID: p.ID, ClientID: u.Company.ID, Source: dc.source,
				InvitedUserID: invited, Started: start, Expiration: s.expiration(start), CreatedAt: start.Time()}); err != nil {
				return err
			}
			if dc.source == SourceReferral {
				if err := s.store.Create(ctx, &store.Redemption{ID: ids.New(), PartnerID: p.ID, ClientID: u.Company.ID, PromoID: p.PromoID,
					Amount: int64(ReferralPromoValue), Linked: true, CreatedAt: start.Time()}); err != nil {
					return err
				}
			}
			return s.store.AddPartnerLinked(ctx, p.ID, 1)
		})
	}
	if err != nil {
		return false, 0, err
	}
	if dc.invited {
		return created, 0, nil
	}
	if err := s.deps.DemoCards.SeedCard(ctx, u.Company.ID); err != nil {
		return created, 0, err
	}
	l, err := s.store.LinkOfClient(ctx, u.Company.ID)
	if err != nil {
		return created, 0, err
	}
	campaigns, split, err := s.seedClientCampaigns(ctx, u, dc, l, n)
	if err != nil {
		return created, 0, err
	}
	count := 0
	for month := l.Started.Time(); !month.After(now) && !dates.Of(month).After(l.Expiration); month = month.AddDate(0, 1, 0) {
		for w := 0; w < 1+(n+int(month.Month()))%2; w++ {
			amount := money.Cents(400_00 + (n*7919+int(month.Month())*104729+w*613)%1500_00)
			key := fmt.Sprintf("demo:partners:%s:%s:%d", u.Company.ID, month.Format("2006-01"), w)
			tx, err := s.deps.Billing.Charge(ctx, billing.ChargeRequest{Key: key, CompanyID: u.Company.ID, Amount: amount,
				Description: "Demo campaign week", CampaignRef: campaigns[campaignOf(month, split)]})
			if err != nil {
				return created, count, err
			}
			accrued := false
			err = db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
				if _, err := s.store.EntryByTransaction(ctx, tx.ID); err == nil {
					return nil
				}
				accrued = true
				rate, _, err := s.rateBP(ctx, p.ID, p.Type)
				if err != nil {
					return err
				}
				return s.accrue(ctx, p.ID, l.ClientID, tx.CampaignRef, month.Year(), int(month.Month()), rate, tx.ID, int64(tx.Amount))
			})
			if err != nil {
				return created, count, err
			}
			if accrued {
				count++
			}
		}
	}
	return created, count, nil
}

// seedClientCampaigns makes the client's two real campaigns (campaigns' SeedClientCampaign), so
// the bonuses of the grids name them: the first runs over the first half of the link's months,
// the second over the rest, up to this week or the link's end. split is the second's first day.
func (s *service) seedClientCampaigns(ctx context.Context, u *identity.User, dc demoClient, l *store.Link, n int) ([2]string, dates.Date, error) {
	var out [2]string
	today := dates.Of(s.deps.Clock.Now())
	end := today
	if l.Expiration.Before(end) {
		end = l.Expiration
	}
	first := l.Started.WeekStart()
	weeks := int(end.Time().Sub(first.Time()).Hours()/24/7) + 1
	half := max(weeks/2, 1)
	split := first.AddWeeks(half)
	market := map[string]string{"ambassador": "Chicago", "certified": "Houston"}[dc.partner]
	names := [2]string{dc.company + " Launch", dc.company + " Always On"}
	spans := [2][2]int{{0, half}, {half, max(weeks-half, 1)}}
	for i := range out {
		id, err := s.deps.DemoCampaigns.SeedClientCampaign(ctx, u.Company.ID, u.ID, names[i], market, first.AddWeeks(spans[i][0]), spans[i][1], 40+n*4+i*2)
		if err != nil {
			return out, split, err
		}
		out[i] = id
	}
	return out, split, nil
}

// campaignOf is the campaign a month's charges are for: the second once its weeks have begun.
func campaignOf(month time.Time, split dates.Date) int {
	if dates.Of(month).Before(split) {
		return 0
	}
	return 1
}

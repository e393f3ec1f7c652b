package identity

import (
	"context"
	"fmt"
	"strings"
	"time"

	"marquee/modules/identity/internal/store"
	"marquee/platform/auth"
	"marquee/platform/db"
	"marquee/platform/ids"
	"marquee/platform/server"
)

// demoCompanies are the demo advertisers' companies; each gets a few users (SeedDemo).
var demoCompanies = []string{"Bayside Bakery", "Granite Fitness", "Harbor Light Dental", "Lumen Books",
	"Northwind Outfitters", "Orchard Street Pets", "Pacific Cycle Works", "Tidewater Realty"}

// demoPeople are the demo users' names, used in turn.
var demoPeople = [][2]string{{"Mary", "Jackson"}, {"Dorothy", "Vaughan"}, {"Claude", "Shannon"}, {"Barbara", "Liskov"},
	{"Edsger", "Dijkstra"}, {"Frances", "Allen"}, {"John", "Backus"}, {"Radia", "Perlman"}, {"Ken", "Thompson"},
	{"Margaret", "Hamilton"}, {"Dennis", "Ritchie"}, {"Adele", "Goldberg"}, {"Donald", "Knuth"}, {"Jean", "Sammet"},
	{"Tim", "Berners-Lee"}, {"Sophie", "Wilson"}, {"Leslie", "Lamport"}, {"Shafi", "Goldwasser"}, {"Niklaus", "Wirth"},
	{"Anita", "Borg"}, {"Guido", "Rossum"}, {"Lynn", "Conway"}, {"Bjarne", "Stroustrup"}, {"Evelyn", "Berezin"},
	{"Whitfield", "Diffie"}, {"Carol", "Shaw"}, {"Vint", "Cerf"}, {"Kathleen", "Booth"}, {"Alan", "Kay"},
	{"Ida", "Rhodes"}, {"Butler", "Lampson"}, {"Susan", "Kare"}}

// SeedDemo implements server.DemoSeeder: a few dozen users over the demo companies (four each,
// every fifth disabled, every seventh invited and not yet active, some asking for a call back),
// and two teammates of the demo advertiser (one invited), so the admin grids and the team list
// look real. They share the demo accounts' password hash. Idempotent: an existing email is kept.
func (m *Module) SeedDemo(ctx context.Context, demo server.DemoAccounts) (string, error) {
	s := m.svc
	adv, ok := demo["advertiser"]
	if !ok {
		return "", fmt.Errorf("identity demo: the advertiser account is missing")
	}
	advUser, err := s.store.UserByID(ctx, adv.UserID)
	if err != nil {
		return "", err
	}
	// Every demo user signs in with the demo advertiser's password (the same hash).
	hash := advUser.PasswordHash
	now := s.now()
	type person struct {
		first, last, email, phone, companyID, status string
		callBack                                     bool
		signIns                                      int
		created                                      time.Time
	}
	var people []person
	n := 0
	next := func() [2]string { p := demoPeople[n%len(demoPeople)]; n++; return p }
	err = db.Transact(ctx, m.deps.DB, func(ctx context.Context) error {
		for ci, name := range demoCompanies {
			c, err := s.store.CompanyByNameKey(ctx, companyNameKey(name))
			if db.IsNotFound(err) {
				c = &store.Company{ID: ids.New(), Name: name, NameKey: companyNameKey(name), Type: CompanyStandard, Status: StatusActive,
					CreatedAt: now.AddDate(0, 0, -90+ci*7), UpdatedAt: now}
				err = s.store.CreateCompany(ctx, c)
			}
			if err != nil {
				return err
			}
			domain := strings.ToLower(strings.ReplaceAll(name, " ", "")) + ".demo"
			for i := 0; i < 4; i++ {
				p := next()
				k := ci*4 + i
				status := StatusActive
				switch {
				case k%5 == 4:
					status = StatusDisabled
				case k%7 == 6:
					status = StatusInvited
				}
				people = append(people, person{first: p[0], last: p[1], email: strings.ToLower(p[0]) + "@" + domain,
					phone: fmt.Sprintf("+1 415 555 %04d", 200+k), companyID: c.ID, status: status, callBack: k%3 == 0,
					signIns: (k * 7) % 41, created: now.AddDate(0, 0, -85+k*2)})
			}
		}
		for i, p := range [][2]string{{"Grace", "Teammate"}, {"Invited", "Teammate"}} {
			status := StatusActive
			if i == 1 {
				status = StatusInvited
			}
			people = append(people, person{first: p[0], last: p[1], email: strings.ToLower(p[0]) + ".teammate@marquee.demo",
				companyID: adv.CompanyID, status: status, signIns: 3 * (1 - i),
				// After the demo advertiser, who signed the company up and so is its owner (team.go).
				created: now.Add(time.Duration(i+1) * time.Second)})
		}
		emails := make([]string, len(people))
		for i, p := range people {
			emails[i] = p.email
		}
		existing, err := s.store.UsersByEmails(ctx, emails)
		if err != nil {
			return err
		}
		have := map[string]bool{}
		for _, u := range existing {
			have[u.Email] = true
		}
		created := 0
		for _, p := range people {
			if have[p.email] {
				continue
			}
			u := &store.User{ID: ids.New(), CompanyID: p.companyID, Email: p.email, PasswordHash: hash, FirstName: p.first, LastName: p.last,
				Phone: p.phone, Role: RoleUser, Status: p.status, TourCampaignShow: true, SendPhoneZoho: p.callBack && p.phone != "",
				SignInCount: p.signIns, CreatedAt: p.created, UpdatedAt: p.created}
			if p.status == StatusInvited {
				u.PasswordHash, u.SignInCount = "", 0
			} else if p.signIns > 0 {
				last := p.created.Add(time.Duration(p.signIns) * 37 * time.Hour)
				if last.After(now) {
					last = now.Add(-time.Duration(p.signIns) * time.Hour)
				}
				u.LastLogin = &last
			}
			if err := s.store.CreateUser(ctx, u); err != nil {
				return err
			}
			created++
		}
		n = created
		return nil
	})
	if err != nil {
		return "", err
	}
	if err := m.seedDemoKey(ctx, adv); err != nil {
		return "", err
	}
	return fmt.Sprintf("identity: %d demo users created over %d companies (%d already there); demo API key %s", n, len(demoCompanies), len(people)-n, demoAPIKey), nil
}

// demoAPIKey is the demo advertiser's read-write API key, printed by `make run`: a fixed key, so a
// newcomer can call /api/v1 at once (docs/api.md). It is a demo credential, like the demo password.
const demoAPIKey = "mq_live_demo0advertiser0key0for0local0use0only" // #nosec G101 -- the demo data's published key, seeded only by seed --demo

// seedDemoKey gives the demo advertiser demoAPIKey, once.
func (m *Module) seedDemoKey(ctx context.Context, adv server.DemoAccount) error {
	s := m.svc
	hash := auth.HashAPIKey(demoAPIKey)
	if _, err := s.store.APIKeyByHash(ctx, hash); !db.IsNotFound(err) {
		return err
	}
	return s.store.CreateAPIKey(ctx, &store.APIKey{ID: ids.New(), CompanyID: adv.CompanyID, CreatedBy: adv.UserID, Name: "Demo key",
		Scope: auth.ScopeReadWrite, Prefix: demoAPIKey[:prefixLen], Hash: hash, CreatedAt: s.now()})
}

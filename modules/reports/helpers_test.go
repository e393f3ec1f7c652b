package reports

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ledongthuc/pdf"

	"marquee/modules/campaigns"
	"marquee/modules/identity"
	"marquee/modules/locations"
	"marquee/platform/dates"
	"marquee/platform/server"
	"marquee/platform/storage"
	"marquee/platform/testkit"
)

// fixture is a running app with the demo advertiser's campaigns (finished weeks with recorded
// impressions and proofs), another company with a campaign, an admin, and a client each.
type fixture struct {
	s                 *testkit.Server
	m                 *Module
	adv, other, admin *testkit.Client
	advAcc, otherAcc  server.DemoAccount
	adminAcc          server.DemoAccount
	camps             map[string]*campaigns.Campaign // the advertiser's, by name
	otherCampaign     string
}

func start(t *testing.T, dialect string, opts ...testkit.Option) *fixture {
	t.Helper()
	s := testkit.Start(t, dialect, server.Compose(Component), opts...)
	f := &fixture{s: s, m: testkit.ModuleOf[*Module](t, s), camps: map[string]*campaigns.Campaign{}}
	ids := testkit.ModuleOf[*identity.Module](t, s).Service()
	user := func(email, company, role string) (*testkit.Client, server.DemoAccount) {
		u, _, err := ids.CreateUser(t.Context(), identity.CreateUserRequest{Email: email, Password: "reports password 1", Role: role,
			CompanyName: company, FirstName: "Ada", LastName: "Lovelace"})
		if err != nil {
			t.Fatal(err)
		}
		c := s.Client(t)
		c.SessionAs(s, u.ID)
		return c, server.DemoAccount{UserID: u.ID, CompanyID: u.Company.ID, Email: email}
	}
	f.adv, f.advAcc = user("ada@reports.test", "Sunrise Coffee", identity.RoleUser)
	f.other, f.otherAcc = user("bob@reports.test", "Other Co", identity.RoleUser)
	f.admin, f.adminAcc = user("admin@reports.test", "Marquee", identity.RoleAdmin)
	loc := testkit.ModuleOf[*locations.Module](t, s)
	today := dates.Today(s.Clock)
	if _, err := loc.GenerateInventory(t.Context(), locations.GenerateOptions{Markets: []string{"SF Bay Area", "Los Angeles"}, FacesPerMarket: 70, Seed: 7,
		Weeks: today.WeekStart().AddWeeks(-13).Weeks(20)}); err != nil {
		t.Fatal(err)
	}
	camp := testkit.ModuleOf[*campaigns.Module](t, s)
	if _, err := camp.SeedDemo(t.Context(), server.DemoAccounts{"advertiser": f.advAcc}); err != nil {
		t.Fatal(err)
	}
	faces, err := loc.Service().Locations(t.Context(), locations.LocationQuery{Markets: []string{"Los Angeles"}})
	if err != nil {
		t.Fatal(err)
	}
	gen, err := camp.GenerateCampaigns(t.Context(), campaigns.GenerateOptions{CompanyID: f.otherAcc.CompanyID, UserID: f.otherAcc.UserID,
		Campaigns: 1, Weeks: 3, FacesPer: 2, Faces: faces, Start: today.WeekStart().AddWeeks(-4), NamePrefix: "Other campaign"})
	if err != nil {
		t.Fatal(err)
	}
	f.otherCampaign = gen[0]
	cs, err := camp.Service().FindCompanyCampaigns(t.Context(), f.advAcc.CompanyID)
	if err != nil || len(cs) == 0 {
		t.Fatalf("campaigns: %d %v", len(cs), err)
	}
	for _, c := range cs {
		f.camps[c.Name] = c
	}
	return f
}

// weekIDs are the ids of a campaign's finished weeks, as the picker offers them.
func (f *fixture) weekIDs(t *testing.T, c *testkit.Client, campaignID string) []string {
	t.Helper()
	var weeks []ReportWeek
	c.Get("/api/reports/campaigns/"+campaignID+"/weeks").Expect(t, 200).JSON(t, &weeks)
	var out []string
	for _, w := range weeks {
		out = append(out, w.WeekIDs...)
	}
	return out
}

// generate makes a report through HTTP.
func (f *fixture) generate(t *testing.T, c *testkit.Client, req ReportRequest) *Report {
	t.Helper()
	var out ReportResponse
	c.Post("/api/campaigns/reports", req).Expect(t, 201).JSON(t, &out)
	if !out.Success || out.Message != MsgCreated || out.Report == nil {
		t.Fatalf("create = %+v", out)
	}
	return out.Report
}

// objects lists the report objects stored on the fs driver.
func (f *fixture) objects(t *testing.T) []string {
	t.Helper()
	var out []string
	root := filepath.Join(f.s.Kernel.Config.FilesDirectory(), "objects", "reports")
	_ = filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func expectMessage(t *testing.T, r *testkit.Response, status int, msg string) {
	t.Helper()
	r.Expect(t, status)
	if got, _ := r.Map(t)["message"].(string); got != msg {
		t.Fatalf("message = %q, want %q (%s)", got, msg, r.Body)
	}
}

// namedFile is a file of a multipart upload.
type namedFile struct {
	name string
	body []byte
}

// upload posts files as multipart parts named "file".
func upload(t *testing.T, s *testkit.Server, c *testkit.Client, path string, files ...namedFile) *testkit.Response {
	t.Helper()
	parts := make([]testkit.File, len(files))
	for i, f := range files {
		parts[i] = testkit.File{Name: f.name, Body: f.body}
	}
	return c.Upload(path, "file", parts...)
}

// pdfText reads a PDF's pages and its text (one string, pages joined).
func pdfText(t *testing.T, b []byte) (int, string) {
	t.Helper()
	r, err := pdf.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("parse pdf: %v", err)
	}
	var sb strings.Builder
	for i := 1; i <= r.NumPage(); i++ {
		p := r.Page(i)
		if p.V.IsNull() {
			continue
		}
		rows, err := p.GetTextByRow()
		if err != nil {
			t.Fatalf("page %d: %v", i, err)
		}
		for _, row := range rows {
			for _, w := range row.Content {
				sb.WriteString(w.S)
			}
			sb.WriteString("\n")
		}
	}
	return r.NumPage(), sb.String()
}

// jpegOf is a w×h JPEG, a creative's picture.
func jpegOf(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.RGBA{uint8(x * 255 / w), 90, uint8(y * 255 / h), 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// failingStorage is the real storage with a fault: the Nth Put from now on fails (a storage
// outage halfway through a generation).
type failingStorage struct {
	storage.Storage
	puts, failAt atomic.Int64
}

func (s *failingStorage) Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) error {
	if n := s.puts.Add(1); n == s.failAt.Load() {
		return errors.New("storage is down")
	}
	return s.Storage.Put(ctx, key, r, size, contentType)
}

package reports

import (
	"bytes"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"marquee/platform/testkit"
)

// Reports on the s3 driver, against a real S3 protocol peer in the process (gofakes3): the PDF and
// the CSV are stored in the bucket, read back from it (the proof photos too), served, and removed
// with the report; a failed generation leaves nothing in the bucket.
func TestReportsOnS3(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		backend := s3mem.New()
		srv := httptest.NewServer(gofakes3.New(backend).Server())
		t.Cleanup(srv.Close)
		f := start(t, dialect,
			testkit.WithEnv("STORAGE_DRIVER", "s3"), testkit.WithEnv("S3_ENDPOINT", strings.TrimPrefix(srv.URL, "http://")),
			testkit.WithEnv("S3_ACCESS_KEY", "test-access"), testkit.WithEnv("S3_SECRET_KEY", "test-secret"),
			testkit.WithEnv("S3_BUCKET", "marquee-reports"))
		reportObjects := func() int {
			t.Helper()
			list, err := backend.ListBucket("marquee-reports", &gofakes3.Prefix{Prefix: "reports/", HasPrefix: true}, gofakes3.ListBucketPage{})
			if err != nil {
				t.Fatal(err)
			}
			return len(list.Contents)
		}
		summer := f.camps["Summer Sale"]
		weeks := f.weekIDs(t, f.adv, summer.ID)

		fs := &failingStorage{Storage: f.m.svc.deps.Storage}
		fs.failAt.Store(2)
		f.m.svc.deps.Storage = fs
		f.adv.Post("/api/campaigns/reports", ReportRequest{CampaignID: summer.ID, WeekIDs: weeks}).Expect(t, 500)
		f.m.svc.deps.Storage = fs.Storage
		if n := reportObjects(); n != 0 {
			t.Fatalf("objects after a failed generation = %d", n)
		}

		r := f.generate(t, f.adv, ReportRequest{CampaignID: summer.ID, WeekIDs: weeks})
		if n := reportObjects(); n != 2 {
			t.Fatalf("objects = %d, want the PDF and the CSV", n)
		}
		res := f.adv.Get(r.URL).Expect(t, 200)
		if !bytes.HasPrefix(res.Body, []byte("%PDF-")) {
			t.Fatal("not a PDF")
		}
		if _, text := pdfText(t, res.Body); !strings.Contains(text, "4 photos taken") {
			t.Fatalf("the proofs were not read from the bucket:\n%s", text)
		}
		f.other.Get(r.URL).Expect(t, 404)
		f.adv.Get(r.CSVURL).Expect(t, 200)
		f.adv.Delete("/api/reports/"+r.ID).Expect(t, 200)
		if n := reportObjects(); n != 0 {
			t.Fatalf("objects after removal = %d", n)
		}
	})
}

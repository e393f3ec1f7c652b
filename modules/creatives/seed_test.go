package creatives_test

import (
	"slices"
	"testing"

	"marquee/modules/creatives"
	"marquee/platform/server"
	"marquee/platform/testkit"
)

func TestSeedDemoIsIdempotentAndCoversEveryTypeAndScope(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		demo := server.DemoAccounts{
			"admin":      {UserID: w.adminID, CompanyID: w.adminCompany},
			"advertiser": {UserID: w.userID, CompanyID: w.userCompany},
			"ambassador": {UserID: w.ambID, CompanyID: w.ambCompany},
		}
		mod := creativesModule(w)
		if _, err := mod.SeedDemo(t.Context(), demo); err != nil {
			t.Fatal(err)
		}
		objects, contents, crs := objectCount(t, w), rowCount(t, w, "creatives_contents"), rowCount(t, w, "creatives_creatives")
		summary, err := mod.SeedDemo(t.Context(), demo)
		if err != nil {
			t.Fatal(err)
		}
		if summary != "creatives: 0 content items and 0 creatives created" || objectCount(t, w) != objects ||
			rowCount(t, w, "creatives_contents") != contents || rowCount(t, w, "creatives_creatives") != crs {
			t.Fatalf("second seed changed something: %s", summary)
		}
		var stored []string
		w.s.Kernel.DB.Table("creatives_contents").Distinct().Pluck("type", &stored)
		slices.Sort(stored)
		// YouTube items are covered by contents_test.go; the demo has none, so no third party's video
		// stands in for the tutorial.
		if !slices.Equal(stored, []string{"doc", "document", "image", "video"}) {
			t.Fatalf("stored types = %v", stored)
		}
		for _, c := range listContents(t, w.admin, "").Items {
			if c.URL != "" {
				w.admin.Get(c.AwsURL).Expect(t, 200)
			}
		}
		for _, who := range []*testkit.Client{w.user, w.amb} {
			if listContents(t, who, "").Total == 0 {
				t.Fatal("a demo user sees no content")
			}
		}
		var def *creatives.Creative
		w.amb.Get("/api/creatives/default").Expect(t, 200).JSON(t, &def)
		if def == nil || def.Width != creatives.BuilderWidth || def.Height != creatives.BuilderHeight {
			t.Fatalf("demo default creative = %+v", def)
		}
		// The demo creatives are builder creatives with their design: each has its pre-flight.
		var page struct{ Items []creatives.Creative }
		w.amb.Get("/api/creatives/?page_size=0").Expect(t, 200).JSON(t, &page)
		for _, c := range page.Items {
			if c.Preflight == nil || len(c.Preflight.Checks) != 7 || c.Preflight.Checks[1].Value == 0 {
				t.Fatalf("demo creative %s: pre-flight %+v", c.Name, c.Preflight)
			}
		}
	})
}

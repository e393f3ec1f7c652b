package store

import (
	"testing"
	"time"

	"marquee/platform/db"
	"marquee/platform/testkit"
)

// locations-0005 gives the faces it finds their market's zone (what zoneOf answers, the business
// zone for a market it does not know) and 06:00 to 24:00.
func TestFaceHoursMigrationGivesEachFaceItsMarketsZone(t *testing.T) {
	zoneOf := func(market string) string {
		if market == "Los Angeles" {
			return "America/Los_Angeles"
		}
		return "America/New_York"
	}
	ms := Migrations(func() ([]Market, []City, error) { return nil, nil, nil }, zoneOf)
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		gdb := testkit.OpenDB(t, dialect)
		if ms[3].ID != "locations-0004-face-geometry" || ms[4].ID != "locations-0005-face-hours" {
			t.Fatalf("migrations %s, %s", ms[3].ID, ms[4].ID)
		}
		if err := db.Migrate(gdb, map[string][]*db.Migration{"locations": ms[:4]}, []string{"locations"}); err != nil {
			t.Fatal(err)
		}
		for i, market := range []string{"Los Angeles", "Atlantis"} {
			f := face0001{ID: market, MarketID: "m", Market: market, City: "c", LocationName: "n", Face: "North", AdRotationFrequency: 8, AdSpotDuration: 8, CreatedAt: time.Now()}
			if err := gdb.Create(&f).Error; err != nil {
				t.Fatal(i, err)
			}
		}
		if err := db.Migrate(gdb, map[string][]*db.Migration{"locations": ms}, []string{"locations"}); err != nil {
			t.Fatal(err)
		}
		var got []Face
		if err := gdb.Order("id").Find(&got).Error; err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"Atlantis": "America/New_York", "Los Angeles": "America/Los_Angeles"}
		for _, f := range got {
			if f.Timezone != want[f.ID] || f.OpenMinute != 360 || f.CloseMinute != 1440 {
				t.Errorf("%s: %+v, want %s 06:00-24:00", f.ID, f.FaceHours, want[f.ID])
			}
		}
		if len(got) != 2 {
			t.Fatalf("%d faces", len(got))
		}
	})
}

package store

import (
	"testing"

	"marquee/platform/testkit"
)

// An empty database migrated by the module's migrations has the tables of the current rows.
func TestMigrationsMakeTheRowsSchema(t *testing.T) {
	testkit.CheckMigrations(t, "locations", Migrations(func() ([]Market, []City, error) { return nil, nil, nil }, func(string) string { return "UTC" }),
		&Market{}, &City{}, &Face{}, &Inventory{}, &Spot{}, &Reservation{}, &Catalogue{})
}

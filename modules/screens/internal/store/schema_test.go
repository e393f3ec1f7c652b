package store

import (
	"testing"

	"marquee/platform/testkit"
)

// An empty database migrated by the module's migrations has the tables of the current rows.
func TestMigrationsMakeTheRowsSchema(t *testing.T) {
	testkit.CheckMigrations(t, "screens", Migrations(),
		&Screen{}, &PairingCode{}, &Play{}, &Batch{}, &Rollup{}, &FileHash{},
		&ImportDisplay{}, &ImportMedia{}, &Import{}, &ImportRow{})
}

package store

import (
	"testing"

	"marquee/platform/testkit"
)

// An empty database migrated by the module's migrations has the tables of the current rows.
func TestMigrationsMakeTheRowsSchema(t *testing.T) {
	testkit.CheckMigrations(t, "campaigns", Migrations(),
		&Campaign{}, &Week{}, &WeekCreative{}, &Charge{}, &RenewalMail{}, &MakeGood{}, &MakeGoodMove{}, &ProofRecord{}, &ProofFile{}, &ProofCheckpoint{}, &ProofWeekHead{})
}

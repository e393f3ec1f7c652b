package db_test

import (
	"slices"
	"testing"

	"marquee/platform/db"
	"marquee/platform/testkit"
)

// '%', '_' and '\' typed in a search are matched literally on both databases (SQLite
// has no default escape character, so an unescaped or wrongly escaped pattern missed them).
func TestLikeMatchesLiterally(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		gdb := testkit.OpenDB(t, dialect)
		if err := gdb.Exec("CREATE TABLE likes (name VARCHAR(50))").Error; err != nil {
			t.Fatal(err)
		}
		for _, n := range []string{"50% off", "500 off", "a_b", "axb", `back\slash`, "backxslash", "plain"} {
			if err := gdb.Exec("INSERT INTO likes (name) VALUES (?)", n).Error; err != nil {
				t.Fatal(err)
			}
		}
		find := func(cond, arg string) []string {
			var out []string
			if err := gdb.Table("likes").Where(cond, arg).Order("name").Pluck("name", &out).Error; err != nil {
				t.Fatal(err)
			}
			return out
		}
		for text, want := range map[string][]string{"0%": {"50% off"}, "_": {"a_b"}, "a_": {"a_b"}, `\`: {`back\slash`},
			"%": {"50% off"}, "off": {"50% off", "500 off"}, "": {"50% off", "500 off", "a_b", "axb", `back\slash`, "backxslash", "plain"}} {
			if got := find(db.Contains("name", text)); !slices.Equal(got, want) {
				t.Errorf("Contains %q = %q, want %q", text, got, want)
			}
		}
		for text, want := range map[string][]string{"50%": {"50% off"}, "a_": {"a_b"}, `back\`: {`back\slash`}, "pl": {"plain"}, "_": nil} {
			if got := find(db.HasPrefix("name", text)); !slices.Equal(got, want) {
				t.Errorf("HasPrefix %q = %q, want %q", text, got, want)
			}
		}
	})
}

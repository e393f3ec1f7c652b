package testkit

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"gorm.io/gorm"
	"gorm.io/gorm/schema"

	"marquee/platform/db"
)

// CheckMigrations migrates an empty database of each dialect (Dialects) with a module's migrations
// and fails the test unless the result is the schema of its current rows: the same tables; in each,
// the same columns (name, type family, length where both declare one, nullability, primary key);
// and every index the rows declare, with its columns in order and its uniqueness. A migration may
// create more indexes than the rows declare (raw SQL: expression, partial and ordered indexes).
//
// Migrations create their tables from snapshots of the rows as they were when the migration
// landed, so a field added to a row without a migration makes this test fail. models must name
// every exported type of the calling test's package that has a TableName method, so a new table
// without a migration fails it too.
func CheckMigrations(t *testing.T, module string, migrations []*db.Migration, models ...any) {
	t.Helper()
	checkModelsListed(t, ".", models)
	ForEachDialect(t, func(t *testing.T, dialect string) {
		gdb := OpenDB(t, dialect)
		if err := db.Migrate(gdb, map[string][]*db.Migration{module: migrations}, []string{module}); err != nil {
			t.Fatalf("migrate %s: %v", module, err)
		}
		diffs, err := SchemaDiff(gdb, models...)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range diffs {
			t.Error(d)
		}
	})
}

// SchemaDiff compares the database's tables (but the migrations' own) with the models and
// returns every difference, one sentence each; none means they agree.
func SchemaDiff(gdb *gorm.DB, models ...any) ([]string, error) {
	var diffs []string
	tables, err := gdb.Migrator().GetTables()
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	want := map[string]bool{}
	cache := &sync.Map{}
	for _, m := range models {
		sch, err := schema.Parse(m, cache, gdb.NamingStrategy)
		if err != nil {
			return nil, fmt.Errorf("parse %T: %w", m, err)
		}
		want[sch.Table] = true
		if !slices.Contains(tables, sch.Table) {
			diffs = append(diffs, fmt.Sprintf("table %s (%T) is not created by any migration", sch.Table, m))
			continue
		}
		d, err := tableDiff(gdb, m, sch)
		if err != nil {
			return nil, err
		}
		diffs = append(diffs, d...)
	}
	for _, tb := range tables {
		if !want[tb] && tb != db.MigrationsTable && !strings.HasPrefix(tb, "sqlite_") {
			diffs = append(diffs, fmt.Sprintf("table %s is created by a migration but no model has it", tb))
		}
	}
	return diffs, nil
}

func tableDiff(gdb *gorm.DB, model any, sch *schema.Schema) ([]string, error) {
	var diffs []string
	mig := gdb.Migrator()
	dialect := db.Dialect(gdb)
	cols, err := mig.ColumnTypes(model)
	if err != nil {
		return nil, fmt.Errorf("columns of %s: %w", sch.Table, err)
	}
	have := map[string]gorm.ColumnType{}
	for _, c := range cols {
		have[c.Name()] = c
	}
	for _, name := range sch.DBNames {
		f := sch.FieldsByDBName[name]
		if f.IgnoreMigration {
			continue
		}
		c, ok := have[name]
		if !ok {
			diffs = append(diffs, fmt.Sprintf("%s.%s (%s.%s) is not created by any migration", sch.Table, name, sch.Name, f.Name))
			continue
		}
		delete(have, name)
		wantType := mig.FullDataTypeOf(f).SQL
		if w, h := typeFamily(dialect, wantType), typeFamily(dialect, c.DatabaseTypeName()); w != h {
			diffs = append(diffs, fmt.Sprintf("%s.%s is %s (%s) in the database, %s (%s) in %s", sch.Table, name, h, c.DatabaseTypeName(), w, wantType, sch.Name))
		}
		if w, ok := declaredLength(wantType); ok {
			if h, ok := c.Length(); ok && h > 0 && h != w {
				diffs = append(diffs, fmt.Sprintf("%s.%s has length %d in the database, %d in %s", sch.Table, name, h, w, sch.Name))
			}
		}
		if pk, ok := c.PrimaryKey(); ok && pk != f.PrimaryKey {
			diffs = append(diffs, fmt.Sprintf("%s.%s: primary key %t in the database, %t in %s", sch.Table, name, pk, f.PrimaryKey, sch.Name))
		}
		// SQLite reports a text primary key as nullable; the primary key is checked above.
		if nullable, ok := c.Nullable(); ok && !f.PrimaryKey && nullable == f.NotNull {
			diffs = append(diffs, fmt.Sprintf("%s.%s: nullable %t in the database, %t in %s", sch.Table, name, nullable, !f.NotNull, sch.Name))
		}
	}
	extra := make([]string, 0, len(have))
	for name := range have {
		extra = append(extra, name)
	}
	sort.Strings(extra)
	for _, name := range extra {
		diffs = append(diffs, fmt.Sprintf("%s.%s is created by a migration but %s has no field for it", sch.Table, name, sch.Name))
	}

	byName, err := indexesOf(gdb, model, sch.Table)
	if err != nil {
		return nil, fmt.Errorf("indexes of %s: %w", sch.Table, err)
	}
	for _, want := range sch.ParseIndexes() {
		ix, ok := byName[want.Name]
		if !ok {
			diffs = append(diffs, fmt.Sprintf("index %s of %s (%s) is not created by any migration", want.Name, sch.Table, sch.Name))
			continue
		}
		var wantCols []string
		for _, o := range want.Fields {
			if o.Expression != "" {
				wantCols = append(wantCols, o.Expression)
			} else {
				wantCols = append(wantCols, o.DBName)
			}
		}
		if !slices.Equal(ix.columns, wantCols) {
			diffs = append(diffs, fmt.Sprintf("index %s of %s is on %v in the database, %v in %s", want.Name, sch.Table, ix.columns, wantCols, sch.Name))
		}
		if ix.unique != (want.Class == "UNIQUE") {
			diffs = append(diffs, fmt.Sprintf("index %s of %s: unique %t in the database, %t in %s", want.Name, sch.Table, ix.unique, want.Class == "UNIQUE", sch.Name))
		}
	}
	return diffs, nil
}

type index struct {
	columns []string
	unique  bool
}

// indexesOf reads the table's indexes by name. gorm's PostgreSQL driver lists an index's columns in
// the table's order, not the index's, so on PostgreSQL they are read from pg_index.
func indexesOf(gdb *gorm.DB, model any, table string) (map[string]index, error) {
	out := map[string]index{}
	if db.Dialect(gdb) != db.Postgres {
		ixs, err := gdb.Migrator().GetIndexes(model)
		if err != nil {
			return nil, err
		}
		for _, ix := range ixs {
			unique, _ := ix.Unique()
			out[ix.Name()] = index{columns: ix.Columns(), unique: unique}
		}
		return out, nil
	}
	var rows []struct {
		Name   string
		Unique bool
		Column string
	}
	err := gdb.Raw(`SELECT i.relname AS name, x.indisunique AS "unique", pg_get_indexdef(x.indexrelid, k.ord::int, true) AS "column"
		FROM pg_index x
		JOIN pg_class t ON t.oid = x.indrelid
		JOIN pg_class i ON i.oid = x.indexrelid
		CROSS JOIN LATERAL unnest(x.indkey) WITH ORDINALITY AS k(attnum, ord)
		WHERE t.relname = ? AND t.relnamespace = current_schema()::regnamespace
		ORDER BY i.relname, k.ord`, table).Scan(&rows).Error
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		ix := out[r.Name]
		ix.columns = append(ix.columns, r.Column)
		ix.unique = r.Unique
		out[r.Name] = ix
	}
	return out, nil
}

// typeFamily names the kind of value a column type holds: text, int, bool, time, float, date or
// blob (or the type itself when it is none of these). gorm makes a bool "numeric" on SQLite and a
// float "decimal" on PostgreSQL, hence the dialect.
func typeFamily(dialect, sqlType string) string {
	t := strings.ToLower(strings.TrimSpace(sqlType))
	if i := strings.IndexAny(t, "( "); i >= 0 {
		t = t[:i]
	}
	switch {
	case t == "numeric" || t == "decimal":
		if dialect == db.SQLite {
			return "bool"
		}
		return "float"
	case strings.Contains(t, "char") || t == "text" || t == "string" || t == "uuid":
		return "text"
	case strings.HasPrefix(t, "int") || strings.HasSuffix(t, "int") || strings.HasSuffix(t, "serial"):
		return "int"
	case strings.HasPrefix(t, "bool"):
		return "bool"
	case strings.HasPrefix(t, "timestamp") || t == "datetime":
		return "time"
	case t == "date":
		return "date"
	case t == "real" || strings.HasPrefix(t, "float") || strings.HasPrefix(t, "double"):
		return "float"
	case t == "blob" || t == "bytea":
		return "blob"
	}
	return t
}

var lengthOf = regexp.MustCompile(`^\w+\((\d+)\)`)

// declaredLength is the n of a type "varchar(n)".
func declaredLength(sqlType string) (int64, bool) {
	m := lengthOf.FindStringSubmatch(strings.ToLower(sqlType))
	if m == nil {
		return 0, false
	}
	n, err := strconv.ParseInt(m[1], 10, 64)
	return n, err == nil
}

// checkModelsListed fails the test unless models has every exported type of the package in dir
// that declares a TableName method.
func checkModelsListed(t *testing.T, dir string, models []any) {
	t.Helper()
	listed := map[string]bool{}
	for _, m := range models {
		listed[reflect.Indirect(reflect.ValueOf(m)).Type().Name()] = true
	}
	pkgs, err := parser.ParseDir(token.NewFileSet(), dir, nil, 0)
	if err != nil {
		t.Fatalf("parse %s: %v", dir, err)
	}
	for _, pkg := range pkgs {
		if strings.HasSuffix(pkg.Name, "_test") {
			continue
		}
		for path, f := range pkg.Files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			for _, d := range f.Decls {
				fn, ok := d.(*ast.FuncDecl)
				if !ok || fn.Name.Name != "TableName" || fn.Recv == nil || len(fn.Recv.List) != 1 {
					continue
				}
				typ := fn.Recv.List[0].Type
				if star, ok := typ.(*ast.StarExpr); ok {
					typ = star.X
				}
				if id, ok := typ.(*ast.Ident); ok && id.IsExported() && !listed[id.Name] {
					t.Errorf("%s has a table (%s), but the schema test's models do not list it", id.Name, path)
				}
			}
		}
	}
}

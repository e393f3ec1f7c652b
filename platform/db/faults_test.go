package db

import (
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/gorm"

	"marquee/platform/apperr"
)

// Fault tells an outage and a full disk from everything else; everything else stays a
// 500, so a bug is never shown to the user as "try again".
func TestFaultClassifies(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want apperr.Code
	}{
		{fmt.Errorf("x: %w", &net.OpError{Op: "dial", Err: syscall.ECONNREFUSED}), apperr.EUNAVAILABLE},
		{&pgconn.PgError{Code: "57P01"}, apperr.EUNAVAILABLE},
		{&pgconn.PgError{Code: "57P03"}, apperr.EUNAVAILABLE},
		{&pgconn.PgError{Code: "08006"}, apperr.EUNAVAILABLE},
		{fmt.Errorf("commit: %w", pgconn.ErrConnClosed), apperr.EUNAVAILABLE},
		{&pgconn.PgError{Code: "53100"}, apperr.ENOSPACE},
		{fmt.Errorf("write: %w", syscall.ENOSPC), apperr.ENOSPACE},
		{&pgconn.PgError{Code: "23505"}, ""},
		{gorm.ErrRecordNotFound, ""},
		{errors.New("nil map"), ""},
		{nil, ""},
	} {
		got := Fault(tc.err)
		if (got == nil) != (tc.want == "") || got != nil && (got.Code != tc.want || got.Message == "") {
			t.Errorf("Fault(%v) = %+v, want %q", tc.err, got, tc.want)
		}
	}
	// A pool that is closed (the process stopping) is an outage too.
	gdb, err := Open(Options{SQLitePath: filepath.Join(t.TempDir(), "f.db")})
	if err != nil {
		t.Fatal(err)
	}
	_ = Close(gdb)
	if err := gdb.Exec("SELECT 1").Error; Fault(err) == nil || Fault(err).Code != apperr.EUNAVAILABLE {
		t.Errorf("closed pool: %v -> %+v", err, Fault(err))
	}
}

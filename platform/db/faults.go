package db

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	sqlite "github.com/glebarez/go-sqlite"
	"github.com/jackc/pgx/v5/pgconn"

	"marquee/platform/apperr"
)

// Faults of the things under a request that are no bug of ours (docs/operations.md
// "Faults"): the database is unreachable (PostgreSQL restarting, the network gone), or the disk
// under it is full. Stores wrap their errors as apperr.Internal with %w; httpx.WriteError asks
// Fault so that such an error answers 503 or 507 with a message for the user instead of 500, and
// never shows the cause.

// Fault returns the application error that err stands for when it is an outage or a full disk,
// and nil when it is anything else (a bug, a constraint, ...).
func Fault(err error) *apperr.Error {
	switch {
	case err == nil:
		return nil
	case DiskFull(err):
		return &apperr.Error{Code: apperr.ENOSPACE, Message: apperr.MsgNoSpace, Cause: err}
	case Unavailable(err):
		return &apperr.Error{Code: apperr.EUNAVAILABLE, Message: apperr.MsgUnavailable, Cause: err}
	}
	return nil
}

// SQLite's primary result codes that mean the disk is full (sqlite3.h).
const (
	sqliteFull = 13 // SQLITE_FULL: a write failed for lack of space (ENOSPC)
)

// DiskFull reports whether err says that the disk (SQLite's, a stored file's, or PostgreSQL's)
// has no space left.
func DiskFull(err error) bool {
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		return true
	}
	var se *sqlite.Error
	if errors.As(err, &se) && se.Code()&0xff == sqliteFull {
		return true
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "53100" { // disk_full
		return true
	}
	return false
}

// Unavailable reports whether err says that the database (or another peer reached over the
// network) cannot be reached now: a refused or broken connection, PostgreSQL shutting down or
// starting up, a connection it ended. A later request may succeed: nothing about the request
// itself was wrong.
func Unavailable(err error) bool {
	if errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) || errors.Is(err, pgconn.ErrConnClosed) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) {
		return true
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		return true
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		// Class 08, connection exception; 57P01-57P03, the server was shut down or is starting
		// (admin_shutdown, crash_shutdown, cannot_connect_now); 53300, too many connections.
		return strings.HasPrefix(pe.Code, "08") || pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03" || pe.Code == "53300"
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	// database/sql's pool once closed (the process is shutting down) has no exported error.
	return strings.Contains(err.Error(), "sql: database is closed")
}

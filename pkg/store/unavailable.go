package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// IsUnavailable reports whether err means the database could not be reached or did not answer
// in time (connection refused, a connection that broke mid-statement, the server
// shutting down or out of connections, a deadline passed while waiting for it), as opposed to
// a statement the database refused. Callers answer such errors with "try again later".
func IsUnavailable(err error) bool {
	if err == nil {
		return false
	}
	var (
		ce *pgconn.ConnectError
		pe *pgconn.PgError
	)
	switch {
	case errors.As(err, &ce), errors.Is(err, driver.ErrBadConn), errors.Is(err, sql.ErrConnDone),
		errors.Is(err, context.DeadlineExceeded), pgconn.Timeout(err):
		return true
	case errors.As(err, &pe):
		// Class 08 is connection exceptions; 57P01–57P03 the server shutting down or starting;
		// 53300 too many connections.
		return strings.HasPrefix(pe.Code, "08") || pe.Code == "57P01" || pe.Code == "57P02" ||
			pe.Code == "57P03" || pe.Code == "53300"
	}
	// pgx reports a connection that closed under a statement in words only.
	msg := err.Error()
	return strings.Contains(msg, "conn closed") || strings.Contains(msg, "unexpected EOF") ||
		strings.Contains(msg, "failed to connect")
}

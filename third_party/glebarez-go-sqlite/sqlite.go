// Package sqlite stands in for github.com/glebarez/go-sqlite, the database/sql driver that the
// gorm dialector github.com/glebarez/sqlite is built on. Flowmill's go.mod replaces that module
// with this folder so the dialector runs on modernc.org/sqlite's driver instead: its prepared
// statements keep their SQLite handle and are reset and rebound on each use, which the store's
// statement cache (pkg/store/stmtcache.go) relies on to parse each statement once per
// connection. glebarez's driver parsed the SQL again on every execution.
//
// Both drivers register themselves under the database/sql name "sqlite", so only one of them
// may be linked. The dialector uses nothing of the original module but its error type, matched
// in its error translator (unique and foreign-key violations to gorm.ErrDuplicatedKey and
// gorm.ErrForeignKeyViolated): Error names modernc's, which has the same Code method and is what
// modernc's driver returns. Importing modernc.org/sqlite also registers its driver as "sqlite",
// so the dialector's own sql.Open("sqlite", dsn) path opens modernc too.
package sqlite

import modernc "modernc.org/sqlite"

// Error is the error modernc.org/sqlite's driver returns; Code gives the extended result code.
type Error = modernc.Error

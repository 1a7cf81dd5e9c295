package store

import "gorm.io/gorm"

// scanRaw runs q, a Raw query, and scans its rows into dest as q.Scan(dest) would, without the
// statement recorder gorm's Scan always uses: that renders every statement with its arguments
// (run data included) as SQL text, whether anything logs it or not.
func scanRaw(q *gorm.DB, dest any) error {
	rows, err := q.Rows()
	if err != nil {
		return err
	}
	defer rows.Close()
	if !rows.Next() {
		return rows.Err()
	}
	if err := q.ScanRows(rows, dest); err != nil {
		return err
	}
	return rows.Close()
}

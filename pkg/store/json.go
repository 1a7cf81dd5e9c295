package store

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
)

// JSON is a raw JSON document kept in a json (Postgres) or text (SQLite) column, as written.
type JSON json.RawMessage

// Value writes the document as text, which both databases accept for their JSON column.
func (j JSON) Value() (driver.Value, error) {
	if len(j) == 0 {
		return nil, nil
	}
	return string(j), nil
}

// Scan reads a document from either database.
func (j *JSON) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*j = nil
	case []byte:
		*j = append((*j)[:0], v...)
	case string:
		*j = JSON(v)
	default:
		return fmt.Errorf("store.JSON: cannot scan %T", src)
	}
	return nil
}

// MarshalJSON emits the document unchanged (null when empty).
func (j JSON) MarshalJSON() ([]byte, error) {
	if len(j) == 0 {
		return []byte("null"), nil
	}
	return j, nil
}

// UnmarshalJSON keeps the document as given.
func (j *JSON) UnmarshalJSON(b []byte) error {
	*j = append((*j)[:0], b...)
	return nil
}

// GormDataType tells gorm the column holds JSON.
func (JSON) GormDataType() string { return "json" }

// MustJSON marshals v, for values that cannot fail to marshal (maps, slices, plain structs).
func MustJSON(v any) JSON {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("store.MustJSON: %v", err))
	}
	return b
}

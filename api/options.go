package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/timezone"
)

// getTimezones answers the time zones a workflow can run in, as an object of IANA name → label,
// for the workflow settings dialog.
func (s *server) getTimezones(c fiber.Ctx) error {
	return respond(c, timezoneList())
}

// timezoneList is built once: it depends only on the zone names and the time zone database.
var timezoneList = sync.OnceValue(func() json.RawMessage { return buildTimezoneList(time.Now().Year()) })

// buildTimezoneList labels each zone like n8n's list, "(GMT-05:00) America - New York", with the
// zone's standard offset in year, and orders the object by that offset, then by name, as the
// editor shows the keys in the order they come. Zones the host's time zone database lacks are
// left out.
func buildTimezoneList(year int) json.RawMessage {
	type zone struct {
		name   string
		offset int // seconds east of UTC
	}
	names := timezone.Places()
	zones := make([]zone, 0, len(names))
	for _, name := range names {
		loc, err := time.LoadLocation(name)
		if err != nil {
			continue
		}
		// Daylight saving time moves the clock forward, so the smaller offset of midwinter and
		// midsummer is the standard one, on either hemisphere.
		_, winter := time.Date(year, time.January, 1, 12, 0, 0, 0, loc).Zone()
		_, summer := time.Date(year, time.July, 1, 12, 0, 0, 0, loc).Zone()
		zones = append(zones, zone{name, min(winter, summer)})
	}
	slices.SortFunc(zones, func(a, b zone) int {
		return cmp.Or(cmp.Compare(a.offset, b.offset), strings.Compare(a.name, b.name))
	})
	var b bytes.Buffer
	b.WriteByte('{')
	for i, z := range zones {
		if i > 0 {
			b.WriteByte(',')
		}
		key, _ := json.Marshal(z.name)
		label, _ := json.Marshal(gmtOffset(z.offset) + " " + placeName(z.name))
		b.Write(key)
		b.WriteByte(':')
		b.Write(label)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// gmtOffset writes an offset in seconds as "(GMT+05:30)".
func gmtOffset(seconds int) string {
	sign := '+'
	if seconds < 0 {
		sign, seconds = '-', -seconds
	}
	return fmt.Sprintf("(GMT%c%02d:%02d)", sign, seconds/3600, seconds%3600/60)
}

// placeName turns "America/Argentina/Buenos_Aires" into "America - Argentina - Buenos Aires".
func placeName(zone string) string {
	return strings.NewReplacer("/", " - ", "_", " ").Replace(zone)
}

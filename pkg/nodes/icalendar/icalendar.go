// Package icalendar is the iCalendar node (version 1): it creates one event file (.ics) per
// item as binary data, in the layout n8n's node writes with the ics package.
package icalendar

import (
	"context"
	"crypto/rand"
	_ "embed"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/fieldtype"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// Type returns the node type for registration.
func Type() nodes.Type {
	t := nodes.Define(descriptionJSON, nodes.KindAction, execute)
	t.EffectFree = true
	return t
}

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	items := ex.InputData(0)
	operation, err := ex.ParamString("operation", 0)
	if err != nil {
		return nil, err
	}
	if operation != "createEventFile" {
		return nil, nodes.Errorf(0, "The operation %q is not supported!", operation)
	}
	out := make([]workflow.Item, 0, len(items))
	for i := range items {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		item, err := createEvent(ex, i)
		if err != nil {
			if !ex.ContinueOnFail() {
				return nil, err
			}
			out = append(out, ex.ErrorItem(err, i))
			continue
		}
		out = append(out, item)
	}
	return [][]workflow.Item{out}, nil
}

// event holds what the file says, in the order it says it.
type event struct {
	title, uid, calName, description, url, geo, location, status string
	organizer, busyStatus, recurrenceRule                        string
	sequence                                                     *string
	start, end                                                   []int
	attendees                                                    []string
}

func createEvent(ex *nodes.Execution, i int) (workflow.Item, error) {
	title, err := ex.ParamString("title", i)
	if err != nil {
		return workflow.Item{}, err
	}
	allDay, err := ex.ParamBool("allDay", i)
	if err != nil {
		return workflow.Item{}, err
	}
	startParam, err := ex.Param("start", i)
	if err != nil {
		return workflow.Item{}, err
	}
	endParam, err := ex.Param("end", i)
	if err != nil {
		return workflow.Item{}, err
	}
	property, err := ex.ParamString("binaryPropertyName", i)
	if err != nil {
		return workflow.Item{}, err
	}
	fields, err := ex.ParamMap("additionalFields", i)
	if err != nil {
		return workflow.Item{}, err
	}
	loc := location(ex, i)
	start, ok := fieldtype.ParseDateTime(startParam)
	if !ok {
		return workflow.Item{}, nodes.Errorf(i, "Invalid start date: %s", jsv.ToString(startParam))
	}
	end, ok := fieldtype.ParseDateTime(endParam)
	if !ok {
		return workflow.Item{}, nodes.Errorf(i, "Invalid end date: %s", jsv.ToString(endParam))
	}
	if allDay {
		end = end.AddDate(0, 0, 1)
	}
	e := event{title: title, start: dateArray(start.In(loc), allDay), end: dateArray(end.In(loc), allDay)}
	e.uid = str(fields["uid"])
	if e.uid == "" {
		e.uid = newUID()
	}
	e.calName = str(fields["calName"])
	e.description = str(fields["description"])
	e.url = str(fields["url"])
	e.location = str(fields["location"])
	e.status = str(fields["status"])
	e.busyStatus = str(fields["busyStatus"])
	e.recurrenceRule = str(fields["recurrenceRule"])
	if s, ok := fields["sequence"]; ok && s != nil {
		v := jsv.ToString(s)
		e.sequence = &v
	}
	if g := sub(fields["geolocationUi"], "geolocationValues"); g != nil {
		e.geo = jsv.ToString(or(g["lat"])) + ";" + jsv.ToString(or(g["lon"]))
	}
	if o := sub(fields["organizerUi"], "organizerValues"); o != nil {
		name := str(o["name"])
		if name == "" {
			name = "Organizer"
		}
		e.organizer = "CN=" + name
		if email := str(o["email"]); email != "" {
			e.organizer += ":mailto:" + email
		}
	}
	if a, ok := workflow.AsObject(fields["attendeesUi"]); ok {
		list, _ := a.Get("attendeeValues").([]any)
		for _, entry := range list {
			m, _ := workflow.AsObject(entry)
			if m == nil {
				continue
			}
			contact := "RSVP=FALSE;"
			if workflow.Truthy(m.Get("rsvp")) {
				contact = "RSVP=TRUE;"
			}
			name := str(m.Get("name"))
			if name == "" {
				name = "Unnamed attendee"
			}
			contact += "CN=" + name
			if email := str(m.Get("email")); email != "" {
				contact += ":mailto:" + email
			}
			e.attendees = append(e.attendees, contact)
		}
	}
	fileName := str(fields["fileName"])
	if fileName == "" {
		fileName = "event.ics"
	}
	data := e.format(ex.Now().UTC())
	bin := nodes.NewBinary([]byte(data), fileName, "text/calendar")
	return workflow.Item{
		JSON:       workflow.NewObject(0),
		Binary:     map[string]workflow.BinaryData{property: bin},
		PairedItem: &workflow.PairedItems{{Item: i}},
	}, nil
}

// location is the zone whose wall clock the dates are written in: the workflow's timezone,
// else the process's, as moment's local time is in n8n.
func location(ex *nodes.Execution, i int) *time.Location {
	if tz := ex.ExprContext(i).Timezone; tz != "" {
		if loc, err := time.LoadLocation(tz); err == nil {
			return loc
		}
	}
	return time.Local
}

// dateArray is moment's toArray cut to the date (all day) or to the second.
func dateArray(t time.Time, allDay bool) []int {
	if allDay {
		return []int{t.Year(), int(t.Month()), t.Day()}
	}
	return []int{t.Year(), int(t.Month()), t.Day(), t.Hour(), t.Minute(), t.Second()}
}

// formatDate writes a date array as a DATE (3 parts) or as a UTC DATE-TIME: the wall clock of
// the array is written with a Z, as the ics package does for UTC input.
func formatDate(a []int) string {
	if len(a) == 3 {
		return fmt.Sprintf("%04d%02d%02d", a[0], a[1], a[2])
	}
	return fmt.Sprintf("%04d%02d%02dT%02d%02d%02dZ", a[0], a[1], a[2], a[3], a[4], a[5])
}

func (e event) format(now time.Time) string {
	var b strings.Builder
	line := func(s string) { b.WriteString(foldLine(s) + "\r\n") }
	b.WriteString("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nCALSCALE:GREGORIAN\r\n")
	line("PRODID:adamgibbons/ics")
	line("METHOD:PUBLISH")
	if e.calName != "" {
		line("X-WR-CALNAME:" + e.calName)
	}
	b.WriteString("X-PUBLISHED-TTL:PT1H\r\nBEGIN:VEVENT\r\n")
	b.WriteString("UID:" + e.uid + "\r\n")
	line("SUMMARY:" + text(e.title))
	b.WriteString("DTSTAMP:" + now.Format("20060102T150400Z") + "\r\n")
	b.WriteString("DTSTART" + valueDate(e.start) + ":" + formatDate(e.start) + "\r\n")
	if len(e.end) != 3 || !equal(e.start, e.end) {
		b.WriteString("DTEND" + valueDate(e.end) + ":" + formatDate(e.end) + "\r\n")
	}
	if e.sequence != nil {
		b.WriteString("SEQUENCE:" + *e.sequence + "\r\n")
	}
	for _, f := range []struct{ name, value string }{
		{"DESCRIPTION:", text(e.description)}, {"URL:", e.url}, {"GEO:", e.geo},
		{"LOCATION:", text(e.location)}, {"STATUS:", e.status}, {"ORGANIZER;", e.organizer},
		{"X-MICROSOFT-CDO-BUSYSTATUS:", e.busyStatus},
	} {
		if f.value != "" {
			line(f.name + f.value)
		}
	}
	for _, a := range e.attendees {
		line("ATTENDEE;" + a)
	}
	if e.recurrenceRule != "" {
		b.WriteString("RRULE:" + e.recurrenceRule + "\r\n")
	}
	b.WriteString("END:VEVENT\r\nEND:VCALENDAR\r\n")
	return b.String()
}

func valueDate(a []int) string {
	if len(a) == 3 {
		return ";VALUE=DATE"
	}
	return ""
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// text escapes backslashes, line breaks, semicolons and commas of a TEXT value.
func text(s string) string {
	return strings.NewReplacer(`\`, `\\`, "\r\n", `\n`, "\n", `\n`, ";", `\;`, ",", `\,`).Replace(s)
}

// foldLine cuts a line after 75 characters, then every 74, continuing with CRLF and a tab.
func foldLine(s string) string {
	r := []rune(s)
	var parts []string
	n := 75
	for len(r) > n {
		parts = append(parts, string(r[:n]))
		r = r[n:]
		n = 74
	}
	parts = append(parts, string(r))
	return strings.Join(parts, "\r\n\t")
}

const uidAlphabet = "useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict"

// newUID is a random 21-character ID in nanoid's alphabet, as the ics package generates.
func newUID() string {
	b := make([]byte, 21)
	for i := range b {
		n, err := rand.Int(rand.Reader, big.NewInt(int64(len(uidAlphabet))))
		if err != nil {
			panic(err)
		}
		b[i] = uidAlphabet[n.Int64()]
	}
	return string(b)
}

func str(v any) string {
	if v == nil {
		return ""
	}
	return jsv.ToString(v)
}

func or(v any) any {
	if v == nil {
		return "undefined"
	}
	return v
}

// sub returns the values of a single fixedCollection option (for example geolocationUi's
// geolocationValues), or nil when it is not set.
func sub(v any, name string) map[string]any {
	o, ok := workflow.AsObject(v)
	if !ok {
		return nil
	}
	inner, ok := workflow.AsObject(o.Get(name))
	if !ok {
		return nil
	}
	return inner.ToMap()
}

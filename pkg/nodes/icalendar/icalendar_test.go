package icalendar_test

import (
	"encoding/base64"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/icalendar"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

var now = time.Date(2023, 2, 10, 9, 36, 41, 0, time.UTC)

func run(t *testing.T, params m) (workflow.BinaryData, string) {
	t.Helper()
	out, err := nodetest.Run(t, icalendar.Type(), nodetest.Node{Parameters: params,
		Flow: nodes.FlowConfig{Now: func() time.Time { return now }}}, nodetest.Items(m{"a": 1.0}))
	require.NoError(t, err)
	require.Len(t, out[0], 1)
	require.Equal(t, 0, out[0][0].JSON.Len())
	var bin workflow.BinaryData
	for _, b := range out[0][0].Binary {
		bin = b
	}
	data, err := base64.StdEncoding.DecodeString(bin.Data)
	require.NoError(t, err)
	return bin, string(data)
}

// local is the wall clock the node writes: the process's zone when the workflow sets none.
func local(s string) time.Time {
	t, _ := time.Parse(time.RFC3339, s)
	return t.In(time.Local)
}

func TestAllDayEvent(t *testing.T) {
	t.Parallel()
	bin, ics := run(t, m{"title": "new event", "start": "2023-02-27T22:00:00.000Z", "end": "2023-02-27T22:00:00.000Z",
		"allDay": true, "additionalFields": m{"calName": "default",
			"attendeesUi": m{"attendeeValues": []any{m{"name": "Person", "email": "person1@email.com"}}}}})
	require.Equal(t, "text/calendar", bin.MimeType)
	require.Equal(t, "event.ics", bin.FileName)
	require.Equal(t, "ics", bin.FileExtension)
	require.Equal(t, "text", bin.FileType)
	require.Equal(t, "359 B", bin.FileSize)
	start, end := local("2023-02-27T22:00:00Z"), local("2023-02-28T22:00:00Z")
	uid := regexp.MustCompile(`UID:([A-Za-z0-9_-]{21})\r\n`).FindStringSubmatch(ics)
	require.NotNil(t, uid, ics)
	require.Equal(t, "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nCALSCALE:GREGORIAN\r\nPRODID:adamgibbons/ics\r\nMETHOD:PUBLISH\r\n"+
		"X-WR-CALNAME:default\r\nX-PUBLISHED-TTL:PT1H\r\nBEGIN:VEVENT\r\nUID:"+uid[1]+"\r\nSUMMARY:new event\r\n"+
		"DTSTAMP:20230210T093600Z\r\nDTSTART;VALUE=DATE:"+start.Format("20060102")+"\r\nDTEND;VALUE=DATE:"+end.Format("20060102")+"\r\n"+
		"ATTENDEE;RSVP=FALSE;CN=Person:mailto:person1@email.com\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n", ics)
}

func TestTimedEventWithFields(t *testing.T) {
	t.Parallel()
	bin, ics := run(t, m{"title": "Plan; review, wrap", "start": "2024-05-06T09:00:00Z", "end": "2024-05-06T09:15:30Z",
		"binaryPropertyName": "cal", "additionalFields": m{
			"uid": "fixed", "fileName": "x.ics", "description": "line1\nline2 " + strings.Repeat("d", 80),
			"location": "Room 1", "status": "TENTATIVE", "busyStatus": "BUSY", "sequence": 2.0,
			"recurrenceRule": "FREQ=DAILY;COUNT=2", "url": "https://example.com",
			"geolocationUi": m{"geolocationValues": m{"lat": "1.5", "lon": "2"}},
			"organizerUi":   m{"organizerValues": m{"name": "Org", "email": "o@example.com"}},
			"attendeesUi":   m{"attendeeValues": []any{m{"email": "a@example.com", "rsvp": true}}},
		}})
	require.Equal(t, "x.ics", bin.FileName)
	start, end := local("2024-05-06T09:00:00Z"), local("2024-05-06T09:15:30Z")
	desc := "DESCRIPTION:line1\\nline2 " + strings.Repeat("d", 80)
	require.Equal(t, "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nCALSCALE:GREGORIAN\r\nPRODID:adamgibbons/ics\r\nMETHOD:PUBLISH\r\n"+
		"X-PUBLISHED-TTL:PT1H\r\nBEGIN:VEVENT\r\nUID:fixed\r\nSUMMARY:Plan\\; review\\, wrap\r\n"+
		"DTSTAMP:20230210T093600Z\r\nDTSTART:"+start.Format("20060102T150405")+"Z\r\nDTEND:"+end.Format("20060102T150405")+"Z\r\n"+
		"SEQUENCE:2\r\n"+desc[:75]+"\r\n\t"+desc[75:]+"\r\nURL:https://example.com\r\nGEO:1.5;2\r\nLOCATION:Room 1\r\n"+
		"STATUS:TENTATIVE\r\nORGANIZER;CN=Org:mailto:o@example.com\r\nX-MICROSOFT-CDO-BUSYSTATUS:BUSY\r\n"+
		"ATTENDEE;RSVP=TRUE;CN=Unnamed attendee:mailto:a@example.com\r\nRRULE:FREQ=DAILY;COUNT=2\r\n"+
		"END:VEVENT\r\nEND:VCALENDAR\r\n", ics)
}

func TestInvalidDate(t *testing.T) {
	t.Parallel()
	_, err := nodetest.Run(t, icalendar.Type(), nodetest.Node{Parameters: m{"start": "soon", "end": "2024-05-06T09:00:00Z"}},
		nodetest.Items(m{}))
	require.ErrorContains(t, err, "Invalid start date: soon")
	out, err := nodetest.Run(t, icalendar.Type(), nodetest.Node{Parameters: m{"start": "2024-05-06T09:00:00Z", "end": "later"},
		ContinueOnFail: true}, nodetest.Items(m{}))
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"error": "Invalid end date: later"}}, nodetest.JSONs(out[0]))
}

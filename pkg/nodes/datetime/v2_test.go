package datetime_test

import (
	"github.com/flowmill/flowmill/pkg/workflow"

	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/datetime"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
)

// The workflow zone in these tests is n8n's default, America/New_York.
func TestDateTimeV2(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		params  m
		input   m
		want    m
		wantErr string
	}{
		{"add days keeps the wall time across a DST change",
			m{"operation": "addToDate", "magnitude": "2023-03-11T12:00:00-05:00", "duration": 1}, m{},
			m{"newDate": "2023-03-12T12:00:00.000-04:00"}, ""},
		{"add months clamps to the month's last day",
			m{"operation": "addToDate", "magnitude": "2023-01-31T10:00:00Z", "timeUnit": "months", "duration": 1}, m{},
			m{"newDate": "2023-02-28T05:00:00.000-05:00"}, ""},
		{"add hours moves the instant",
			m{"operation": "addToDate", "magnitude": "2023-03-12T01:30:00-05:00", "timeUnit": "hours", "duration": 1}, m{},
			m{"newDate": "2023-03-12T03:30:00.000-04:00"}, ""},
		{"subtract quarters into the output field, keeping the input",
			m{"operation": "subtractFromDate", "magnitude": "={{ $json.d }}", "timeUnit": "quarters", "duration": 1,
				"outputFieldName": "earlier", "options": m{"includeInputFields": true}},
			m{"d": "2023-05-15T00:00:00-04:00"},
			m{"d": "2023-05-15T00:00:00-04:00", "earlier": "2023-02-15T00:00:00.000-05:00"}, ""},
		{"format keeps the offset the input names",
			m{"operation": "formatDate", "date": "2023-04-11T23:30:00+02:00", "format": "custom", "customFormat": "yyyy-MM-dd HH:mm ZZ"}, m{},
			m{"formattedDate": "2023-04-11 23:30 +02:00"}, ""},
		{"format in the workflow's zone",
			m{"operation": "formatDate", "date": "2023-04-11T02:30:00Z", "format": "custom", "customFormat": "cccc d LLLL yyyy, h:mm a",
				"options": m{"timezone": true}}, m{},
			m{"formattedDate": "Monday 10 April 2023, 10:30 PM"}, ""},
		{"format a milliseconds timestamp as Unix seconds",
			m{"operation": "formatDate", "date": "={{ 1682918315906 }}", "format": "X"}, m{},
			m{"formattedDate": "1682918315"}, ""},
		{"format with quoted text",
			m{"operation": "formatDate", "date": "2023-04-09", "format": "custom", "customFormat": "'week' W 'of' kkkk, 'day' o"}, m{},
			m{"formattedDate": "week 14 of 2023, day 99"}, ""},
		{"format from a given format",
			m{"operation": "formatDate", "date": "20230409", "format": "MMMM dd yyyy", "options": m{"fromFormat": "yyyyMMdd"}}, m{},
			m{"formattedDate": "April 09 2023"}, ""},
		{"format a null date gives null",
			m{"operation": "formatDate", "date": "={{ $json.missing ?? null }}"}, m{},
			m{"formattedDate": nil}, ""},
		{"format an unreadable date",
			m{"operation": "formatDate", "date": "soon"}, m{}, nil, "Invalid date format"},
		{"format not matching the from format",
			m{"operation": "formatDate", "date": "2023-04-09", "options": m{"fromFormat": "dd/MM/yyyy"}}, m{}, nil, "Invalid date format"},
		{"round down to the week starts on Monday",
			m{"operation": "roundDate", "date": "2023-04-13T15:00:00-04:00", "toNearest": "week"}, m{},
			m{"roundedDate": "2023-04-10T00:00:00.000-04:00"}, ""},
		{"round a date written as JavaScript's Date reads it",
			m{"operation": "roundDate", "date": "2023/04/13", "toNearest": "month"}, m{},
			m{"roundedDate": "2023-04-01T00:00:00.000-04:00"}, ""},
		{"round up to the end of the month",
			m{"operation": "roundDate", "date": "2023-04-13T15:00:00-04:00", "mode": "roundUp"}, m{},
			m{"roundedDate": "2023-05-01T00:00:00.000-04:00"}, ""},
		{"time between in months and days",
			m{"operation": "getTimeBetweenDates", "startDate": "2023-01-31T00:00:00-05:00", "endDate": "2023-03-15T12:00:00-04:00",
				"units": []any{"month", "day"}}, m{},
			m{"timeDifference": m{"months": 1.0, "days": 15.5}}, ""},
		{"time between in hours and minutes, reversed",
			m{"operation": "getTimeBetweenDates", "startDate": "2023-01-01T02:30:00Z", "endDate": "2023-01-01T00:00:00Z",
				"units": []any{"hour", "minute"}}, m{},
			m{"timeDifference": m{"hours": -2.0, "minutes": -30.0}}, ""},
		{"time between as an ISO duration",
			m{"operation": "getTimeBetweenDates", "startDate": "2023-01-01T00:00:00Z", "endDate": "2023-01-09T01:00:01.5Z",
				"units": []any{"week", "day", "hour", "second"}, "options": m{"isoString": true}}, m{},
			m{"timeDifference": "P1W1DT1H1.5S"}, ""},
		{"extract the ISO week",
			m{"operation": "extractDate", "date": "2023-01-01T12:00:00Z", "part": "week"}, m{},
			m{"datePart": 52}, ""},
		{"extract the hour in the workflow's zone",
			m{"operation": "extractDate", "date": "2023-07-01T02:00:00Z", "part": "hour"}, m{},
			m{"datePart": 22}, ""},
		{"a seconds timestamp string",
			m{"operation": "extractDate", "date": "1682918315", "part": "day"}, m{},
			m{"datePart": 1}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := nodetest.Run(t, datetime.TypeV2(), nodetest.Node{Version: 2, Parameters: tc.params}, nodetest.Items(tc.input))
			if tc.wantErr != "" {
				require.ErrorContains(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			require.Len(t, out[0], 1)
			require.Equal(t, map[string]any(tc.want), workflow.ToMaps(out[0][0].JSON))
		})
	}
}

func TestDateTimeV2CurrentDate(t *testing.T) {
	t.Parallel()
	now := time.Date(2023, 7, 1, 2, 3, 4, 5e6, time.UTC)
	flow := nodes.FlowConfig{Now: func() time.Time { return now }}
	run := func(params m) m {
		out, err := nodetest.Run(t, datetime.TypeV2(), nodetest.Node{Version: 2, Parameters: params, Flow: flow}, nodetest.Items(m{"a": 1}))
		require.NoError(t, err)
		return out[0][0].JSON.ToMap()
	}
	require.Equal(t, m{"currentDate": "2023-06-30T22:03:04.005-04:00"}, run(m{}))
	require.Equal(t, m{"a": 1.0, "today": "2023-07-01T00:00:00.000+02:00"},
		normalise(run(m{"includeTime": false, "outputFieldName": "today",
			"options": m{"timezone": "Europe/Berlin", "includeInputFields": true}})))

	// A from format without the larger units takes them from now, as Luxon does.
	timeOnly := m{"operation": "formatDate", "date": "09:15", "format": "custom", "customFormat": "yyyy-MM-dd HH:mm",
		"options": m{"fromFormat": "HH:mm"}}
	require.Equal(t, m{"formattedDate": "2023-07-01 09:15"}, run(timeOnly))
	dayMonth := m{"operation": "formatDate", "date": "24/12", "format": "yyyy-MM-dd", "options": m{"fromFormat": "dd/MM"}}
	require.Equal(t, m{"formattedDate": "2023-12-24"}, run(dayMonth))

	_, err := nodetest.Run(t, datetime.TypeV2(), nodetest.Node{Version: 2, Flow: flow,
		Parameters: m{"options": m{"timezone": "Mars/Olympus"}}}, nodetest.Items(m{}))
	require.ErrorContains(t, err, "The timezone Mars/Olympus is not valid")
}

// normalise turns the input's numbers into float64, as JSON decoding gives them.
func normalise(j m) m {
	out := m{}
	for k, v := range j {
		if n, ok := v.(int); ok {
			v = float64(n)
		}
		out[k] = v
	}
	return out
}

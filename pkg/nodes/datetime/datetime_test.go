package datetime_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/datetime"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

func TestDateTimeFormat(t *testing.T) {
	t.Parallel()
	hawaii := m{"fromTimezone": "US/Hawaii"}
	tests := []struct {
		name    string
		params  m
		input   m
		want    any
		wantErr string
	}{
		{"default format", m{"value": "08/01/2022"}, m{}, "08/01/2022", ""},
		{"custom format", m{"value": "2022-08-01T10:20:30Z", "custom": true, "toFormat": "dddd, MMMM Do YYYY, h:mm:ss a"}, m{},
			"Monday, August 1st 2022, 10:20:30 am", ""},
		{"from time zone, to the workflow's", m{"value": "08/01/2022", "toFormat": "YYYY/MM/DD", "options": hawaii}, m{}, "2022/07/31", ""},
		{"from and to time zones", m{"value": "08/01/2022", "toFormat": "x", "options": m{"fromTimezone": "US/Hawaii", "toTimezone": "US/Pacific"}}, m{},
			"1659312000000", ""},
		{"from format in a zone", m{"value": "2022-01-12", "toFormat": "MM-DD-YYYY",
			"options": m{"fromFormat": "YYYY-DD-MM", "fromTimezone": "US/Hawaii", "toTimezone": "US/Pacific"}}, m{}, "12-01-2022", ""},
		{"wall time in the from zone", m{"value": "2022-08-01 10:00", "custom": true, "toFormat": "HH:mm Z",
			"options": m{"fromTimezone": "Europe/Berlin", "toTimezone": "UTC"}}, m{}, "08:00 +00:00", ""},
		{"from format without zones", m{"value": "1/2/2023", "custom": true, "toFormat": "YYYY-MM-DD", "options": m{"fromFormat": "D/M/YYYY"}}, m{},
			"2023-02-01", ""},
		{"seconds timestamp", m{"value": "={{ 1680258661 }}", "toFormat": "YYYY-MM-DD", "options": m{"toTimezone": "UTC"}}, m{}, "2023-03-31", ""},
		{"milliseconds timestamp", m{"value": "1659312000000", "custom": true, "toFormat": "YYYY-MM-DD HH:mm"}, m{}, "2022-08-01 00:00", ""},
		{"fractional seconds timestamp", m{"value": "1659312000.5", "custom": true, "toFormat": "x"}, m{}, "1659312000500", ""},
		{"luxon value from an expression", m{"value": "={{ DateTime.fromISO('2023-03-31T06:31:01.000', {zone: 'UTC'}) }}", "toFormat": "X"}, m{},
			"1680244261", ""},
		{"dot notation property", m{"value": "2022-08-01", "dataPropertyName": "out.date", "toFormat": "YYYY-MM-DD"}, m{"out": m{"keep": true}},
			nil, ""},
		{"unrecognised input", m{"value": "not a date"}, m{}, nil, "The date input format could not be recognized. Please set the \"From Format\" field"},
		{"unparsable with from format", m{"value": "not a date", "options": m{"fromFormat": "YYYY"}}, m{}, "Invalid date", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := nodetest.Items(tc.input)
			out, err := nodetest.Run(t, datetime.Type(), nodetest.Node{Parameters: tc.params}, in)
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			got := out[0][0].JSON.ToMap()
			if tc.name == "dot notation property" {
				require.Equal(t, m{"out": m{"keep": true, "date": "2022-08-01"}}, got)
				require.Equal(t, m{"keep": true}, workflow.ToMaps(in[0].JSON.Get("out")), "the input is not changed")
				return
			}
			require.Equal(t, tc.want, got["data"])
		})
	}
}

func TestDateTimeCalculate(t *testing.T) {
	t.Parallel()
	calc := func(p m) m {
		p["action"] = "calculate"
		return p
	}
	tests := []struct {
		name    string
		params  m
		want    any
		wantErr string
	}{
		{"add days", calc(m{"value": "08/01/2022", "duration": 10.0}), "2022-08-11T00:00:00.000Z", ""},
		{"subtract days", calc(m{"value": "08/01/2022", "operation": "subtract", "duration": 2.0}), "2022-07-30T00:00:00.000Z", ""},
		{"add quarters", calc(m{"value": "08/01/2022", "duration": 2.0, "timeUnit": "quarters"}), "2023-02-01T00:00:00.000Z", ""},
		{"months clamp the day", calc(m{"value": "2022-01-31T12:00:00Z", "duration": 1.0, "timeUnit": "months"}), "2022-02-28T12:00:00.000Z", ""},
		{"hours", calc(m{"value": "2022-08-01T23:00:00Z", "duration": 2.0, "timeUnit": "hours"}), "2022-08-02T01:00:00.000Z", ""},
		{"timestamp in milliseconds", calc(m{"value": "={{ 1659312000000 }}", "duration": 1.0, "timeUnit": "minutes"}), "2022-08-01T00:01:00.000Z", ""},
		{"from format, strict", calc(m{"value": "01.08.2022", "duration": 1.0, "options": m{"fromFormat": "DD.MM.YYYY"}}), "2022-08-02T00:00:00.000Z", ""},
		{"from format mismatch", calc(m{"value": "01.08.22", "options": m{"fromFormat": "DD.MM.YYYY"}}), nil,
			`Date input cannot be parsed. Please recheck the value and the "From Format" field.`},
		{"unrecognised input", calc(m{"value": "soon"}), nil, `Unrecognized date input. Please specify a format in the "From Format" field.`},
		{"other property", calc(m{"value": "2022-08-01", "dataPropertyName": "next"}), nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := nodetest.Run(t, datetime.Type(), nodetest.Node{Parameters: tc.params}, nodetest.Items(m{"keep": 1.0}))
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			got := out[0][0].JSON.ToMap()
			require.Equal(t, 1.0, got["keep"])
			if tc.name == "other property" {
				require.Equal(t, "2022-08-01T00:00:00.000Z", got["next"])
				return
			}
			require.Equal(t, tc.want, got["data"])
		})
	}
}

func TestDateTimeContinueOnFailAndItems(t *testing.T) {
	t.Parallel()
	in := []workflow.Item{
		{JSON: workflow.ObjectFromMap(m{"d": "bad"})},
		{JSON: workflow.ObjectFromMap(m{"d": "2022-08-01"}), Binary: map[string]workflow.BinaryData{"f": {Data: "aGk="}}},
	}
	params := m{"value": "={{ $json.d }}", "toFormat": "YYYY-MM-DD"}
	out, err := nodetest.Run(t, datetime.Type(), nodetest.Node{Parameters: params, ContinueOnFail: true}, in)
	require.NoError(t, err)
	require.Equal(t, []map[string]any{
		{"error": "The date input format could not be recognized. Please set the \"From Format\" field"},
		{"d": "2022-08-01", "data": "2022-08-01"},
	}, nodetest.JSONs(out[0]))
	require.Equal(t, "aGk=", out[0][1].Binary["f"].Data)
	require.Equal(t, workflow.PairedItems{{Item: 1}}, *out[0][1].PairedItem)

	out, err = nodetest.Run(t, datetime.Type(), nodetest.Node{Parameters: params}, []workflow.Item{})
	require.NoError(t, err)
	require.Empty(t, out[0])
}

func TestDateTimeTimezones(t *testing.T) {
	t.Parallel()
	opts, err := datetime.Type().LoadOptions["getTimezones"](context.Background(), nodes.LoadOptionsRequest{})
	require.NoError(t, err)
	require.NotEmpty(t, opts)
	names := map[any]bool{}
	for _, o := range opts {
		names[o.Value] = true
	}
	require.True(t, names["UTC"])
}

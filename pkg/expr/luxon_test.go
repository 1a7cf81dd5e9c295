package expr

import (
	"github.com/flowmill/flowmill/pkg/workflow"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLuxon checks Luxon on goja with the Intl polyfill against what Luxon 3.7.2 gives on
// Node.js 20 (full ICU) for the same code, with Europe/Berlin as the default zone. The cases
// cross the 2024 daylight-saving changes of Europe/Berlin and America/New_York.
func TestLuxon(t *testing.T) {
	t.Parallel()
	e, err := New(Options{DefaultTimezone: "Europe/Berlin"})
	require.NoError(t, err)
	for _, tc := range []struct {
		expr string
		want any
	}{
		{`DateTime.fromISO('2024-03-31T01:30:00').plus({hours: 1}).toISO()`, "2024-03-31T03:30:00.000+02:00"},
		{`DateTime.fromISO('2024-03-30T12:00:00').plus({days: 1}).toISO()`, "2024-03-31T12:00:00.000+02:00"},
		{`DateTime.fromISO('2024-03-31T12:00:00').diff(DateTime.fromISO('2024-03-30T12:00:00'), 'hours').hours`, int64(23)},
		{`DateTime.fromISO('2024-10-27T01:30:00').plus({hours: 2}).toFormat('yyyy-MM-dd HH:mm:ss ZZ')`, "2024-10-27 02:30:00 +01:00"},
		{`DateTime.fromISO('2024-10-27T12:00:00').startOf('day').toISO()`, "2024-10-27T00:00:00.000+02:00"},
		{`DateTime.fromISO('2024-10-27T12:00:00').toFormat('ZZZZ ZZZZZ z')`, "GMT+1 Central European Standard Time Europe/Berlin"},
		{`DateTime.fromISO('2024-07-01T12:00:00').toFormat('ZZZZ ZZZZZ')`, "GMT+2 Central European Summer Time"},
		{`DateTime.fromISO('2024-07-01T12:00:00', {zone: 'America/New_York'}).toFormat('yyyy-MM-dd HH:mm:ss ZZZZ ZZZZZ')`, "2024-07-01 12:00:00 EDT Eastern Daylight Time"},
		{`DateTime.fromISO('2024-03-10T01:30:00', {zone: 'America/New_York'}).plus({hours: 1}).toISO()`, "2024-03-10T03:30:00.000-04:00"},
		{`DateTime.fromISO('2024-11-03T00:30:00', {zone: 'America/New_York'}).plus({hours: 1}).toFormat('HH:mm ZZZZ')`, "01:30 EDT"},
		{`DateTime.fromISO('2024-11-03T00:30:00', {zone: 'America/New_York'}).plus({hours: 2}).toFormat('HH:mm ZZZZ')`, "01:30 EST"},
		{`DateTime.fromISO('2024-01-05T15:04:05.123Z').setZone('Asia/Kolkata').toISO()`, "2024-01-05T20:34:05.123+05:30"},
		{`DateTime.fromISO('2024-01-05T15:04:05.123Z').setZone('Asia/Kolkata').toFormat('ZZZZ')`, "GMT+5:30"},
		{`DateTime.fromISO('2024-01-05T15:04:05.123Z').setZone('UTC').toFormat('ZZZZ ZZZZZ')`, "UTC UTC"},
		{`DateTime.fromISO('2024-01-05T15:04:05', {zone: 'America/New_York'}).toFormat('EEEE, MMMM d, yyyy h:mm a')`, "Friday, January 5, 2024 3:04 PM"},
		{`DateTime.fromISO('2024-01-05T15:04:05', {zone: 'America/New_York'}).toLocaleString(DateTime.DATETIME_MED)`, "Jan 5, 2024, 3:04 PM"},
		{`DateTime.fromISO('2024-01-05T15:04:05', {zone: 'America/New_York'}).toLocaleString(DateTime.DATETIME_FULL)`, "January 5, 2024 at 3:04 PM EST"},
		{`DateTime.fromISO('2024-01-05T15:04:05', {zone: 'America/New_York'}).toLocaleString(DateTime.DATETIME_HUGE_WITH_SECONDS)`, "Friday, January 5, 2024 at 3:04:05 PM Eastern Standard Time"},
		{`DateTime.fromISO('2024-01-05T15:04:05', {zone: 'America/New_York'}).toLocaleString()`, "1/5/2024"},
		{`DateTime.fromISO('2024-01-05T15:04:05', {zone: 'America/New_York'}).toLocaleString(DateTime.TIME_24_WITH_SECONDS)`, "15:04:05"},
		{`DateTime.fromISO('2024-01-05T15:04:05', {zone: 'America/New_York'}).toLocaleString(DateTime.DATE_MED_WITH_WEEKDAY)`, "Fri, Jan 5, 2024"},
		{`DateTime.fromISO('2024-01-05T15:04:05', {zone: 'America/New_York'}).toFormat('D DD DDD DDDD t tt T TT f ff F')`, "1/5/2024 Jan 5, 2024 January 5, 2024 Friday, January 5, 2024 3:04 PM 3:04:05 PM 15:04 15:04:05 1/5/2024, 3:04 PM Jan 5, 2024, 3:04 PM 1/5/2024, 3:04:05 PM"},
		{`DateTime.fromISO('2024-01-05T00:04:05', {zone: 'America/New_York'}).toLocaleString(DateTime.TIME_SIMPLE)`, "12:04 AM"},
		{`DateTime.fromFormat('05/01/2024 14:30', 'dd/MM/yyyy HH:mm').toISO()`, "2024-01-05T14:30:00.000+01:00"},
		{`DateTime.fromISO('2024-01-31').plus({months: 1}).toISODate()`, "2024-02-29"},
		{`DateTime.fromISO('2024-01-05T10:00:00').setZone('America/New_York').toISO()`, "2024-01-05T04:00:00.000-05:00"},
		{`Interval.fromDateTimes(DateTime.fromISO('2024-03-30'), DateTime.fromISO('2024-04-02')).length('days')`, int64(3)},
		{`DateTime.fromISO('2024-03-31T12:00:00').weekNumber`, int64(13)},
		{`DateTime.fromISO('2024-03-31T12:00:00').toRelative({base: DateTime.fromISO('2024-03-30T12:00:00')})`, "in 1 day"},
		{`DateTime.fromMillis(0).toISO()`, "1970-01-01T01:00:00.000+01:00"},
		{`DateTime.fromSeconds(1700000000).toFormat('yyyy LLL dd')`, "2023 Nov 14"},
		{`DateTime.fromJSDate(new Date(0)).toISO()`, "1970-01-01T01:00:00.000+01:00"},
		{`DateTime.fromISO('2024-01-05T15:04:05', {zone: 'America/New_York'}).toFormat('ccc cccc LLL LLLL MMM')`, "Fri Friday Jan January Jan"},
		{`DateTime.fromISO('2024-06-15T10:00:00', {zone: 'Europe/London'}).toFormat('ZZZZ ZZZZZ')`, "GMT+1 British Summer Time"},
		{`DateTime.fromISO('2024-06-15T10:00:00', {zone: 'Australia/Sydney'}).toFormat('ZZZZ ZZZZZ')`, "GMT+10 Australian Eastern Standard Time"},
		{`DateTime.fromISO('2024-06-15T10:00:00', {zone: 'Asia/Tokyo'}).toLocaleString(DateTime.DATETIME_FULL)`, "June 15, 2024 at 10:00 AM GMT+9"},
		{`DateTime.local(2024, 1, 1).isInDST`, false},
		{`DateTime.local(2024, 7, 1).isInDST`, true},
		{`DateTime.local(2024, 7, 1).offsetNameShort`, "GMT+2"},
	} {
		got, err := e.Evaluate("={{ "+tc.expr+" }}", nil)
		require.NoError(t, err, tc.expr)
		require.Equal(t, tc.want, got, tc.expr)
	}
}

// The time zone follows the Context, also when one runtime serves contexts in turn.
func TestLuxonZonePerContext(t *testing.T) {
	t.Parallel()
	e, err := New(Options{PoolSize: 1})
	require.NoError(t, err)
	for _, zone := range []string{"America/New_York", "Europe/Berlin", "", "Asia/Kolkata"} {
		want := zone
		if want == "" {
			want = "America/New_York" // the default
		}
		for _, expr := range []string{"={{ $now.zoneName }}", "={{ $today.zoneName }}", "={{ DateTime.local().zoneName }}"} {
			got, err := e.Evaluate(expr, &Context{Timezone: zone})
			require.NoError(t, err)
			require.Equal(t, want, got, expr)
		}
	}
}

func TestLuxonValuesConvertToISO(t *testing.T) {
	t.Parallel()
	e := newTestEvaluator(t)
	got, err := e.Evaluate(`={{ {at: DateTime.fromISO("2024-01-05T10:00:00Z", {zone: "UTC"}), d: new Date(0), dur: Duration.fromObject({hours: 2})} }}`, nil)
	require.NoError(t, err)
	require.Equal(t, map[string]any{"at": "2024-01-05T10:00:00.000Z", "d": "1970-01-01T00:00:00.000Z", "dur": "PT2H"}, workflow.ToMaps(got))

	got, err = e.Evaluate(`=at {{ DateTime.fromISO("2024-01-05T10:00:00Z", {zone: "UTC"}) }}`, nil)
	require.NoError(t, err)
	require.Equal(t, "at 2024-01-05T10:00:00.000Z", got)
}

func TestIntlDateTimeFormat(t *testing.T) {
	t.Parallel()
	e := newTestEvaluator(t)
	for _, tc := range []struct {
		expr string
		want any
	}{
		{`new Intl.DateTimeFormat("en-US", {timeZone: "Europe/Berlin"}).resolvedOptions().timeZone`, "Europe/Berlin"},
		{`new Intl.DateTimeFormat().resolvedOptions().locale`, "en-US"},
		{`new Intl.DateTimeFormat("en-US", {hour12: false, timeZone: "America/New_York", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", era: "short"}).format(new Date(Date.UTC(2024, 0, 5, 5, 4, 5)))`, "01/05/2024 AD, 00:04:05"},
		{`new Intl.DateTimeFormat("en-US", {hourCycle: "h23", timeZone: "Europe/Berlin", hour: "2-digit", minute: "2-digit"}).formatToParts(0).map(p => p.type + "=" + p.value).join("|")`, "hour=01|literal=:|minute=00"},
		{`(() => { try { new Intl.DateTimeFormat("en-US", {timeZone: "Mars/Olympus"}); return "no error" } catch (e) { return e.message } })()`, "RangeError: Invalid time zone specified: Mars/Olympus"},
		{`DateTime.local().setZone("Mars/Olympus").isValid`, false},
	} {
		got, err := e.Evaluate("={{ "+tc.expr+" }}", nil)
		require.NoError(t, err, tc.expr)
		require.Equal(t, tc.want, got, tc.expr)
	}
}

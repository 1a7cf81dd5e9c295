package datetime

import (
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The tests run with the process in UTC, as n8n's own tests of this node do.
func TestMain(m *testing.M) {
	time.Local = time.UTC
	os.Exit(m.Run())
}

func TestMomentFormat(t *testing.T) {
	t.Parallel()
	ny, err := time.LoadLocation("America/New_York")
	require.NoError(t, err)
	at := time.Date(2022, 8, 1, 15, 4, 5, 123e6, time.UTC)
	local := localMoment(at)
	zoned := local.tz(ny)
	tests := []struct {
		m      moment
		format string
		want   string
	}{
		{local, "YYYY/MM/DD", "2022/08/01"},
		{local, "MMMM DD YYYY", "August 01 2022"},
		{local, "M/D/YY, MMM Do, ddd dddd dd d E", "8/1/22, Aug 1st, Mon Monday Mo 1 1"},
		{local, "Q Qo DDD DDDD DDDo", "3 3rd 213 213 213th"},
		{local, "H HH h hh k a A", "15 15 3 03 15 pm PM"},
		{local, "m mm s ss S SS SSS SSSS", "4 04 5 05 1 12 123 1230"},
		{local, "hmm Hmmss", "304 150405"},
		{local, "X x", "1659366245 1659366245123"},
		{local, "Z ZZ", "+00:00 +0000"},
		{local, "[Today is] dddd [at] LT", "Today is Monday at 3:04 PM"},
		{local, `\Y\Y YYYY`, "YY 2022"},
		{local, "L LL LLL LLLL", "08/01/2022 August 1, 2022 August 1, 2022 3:04 PM Monday, August 1, 2022 3:04 PM"},
		{local, "l ll lll llll", "8/1/2022 Aug 1, 2022 Aug 1, 2022 3:04 PM Mon, Aug 1, 2022 3:04 PM"},
		{local, "W WW w ww gggg GGGG", "31 31 32 32 2022 2022"},
		{local, "", "2022-08-01T15:04:05+00:00"},
		{local.toUTC(), "", "2022-08-01T15:04:05Z"},
		{local.toUTC(), "z zz", "UTC Coordinated Universal Time"},
		{zoned, "YYYY-MM-DD HH:mm Z z", "2022-08-01 11:04 -04:00 EDT"},
		{invalidMoment(), "YYYY", "Invalid date"},
		{localMoment(time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC)), "w gggg W GGGG Do", "1 2021 53 2020 1st"},
		{localMoment(time.Date(2021, 1, 11, 0, 0, 0, 0, time.UTC)), "Do", "11th"},
		{localMoment(time.Date(2021, 1, 22, 0, 0, 0, 0, time.UTC)), "Do", "22nd"},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, tc.m.format(tc.format), tc.format)
	}
}

func TestMomentParse(t *testing.T) {
	t.Parallel()
	iso := func(m moment) string {
		if !m.valid {
			return "invalid"
		}
		s, _ := m.toISOString()
		return s
	}
	for _, tc := range []struct {
		in   string
		utc  bool
		want string
	}{
		{"2022-08-01", false, "2022-08-01T00:00:00.000Z"},
		{"2022-08-01T10:20:30.5+02:00", false, "2022-08-01T08:20:30.500Z"},
		{"2022-08-01 10:20", true, "2022-08-01T10:20:00.000Z"},
		{"20220801T102030Z", false, "2022-08-01T10:20:30.000Z"},
		{"2022-W31-1", false, "2022-08-01T00:00:00.000Z"},
		{"2022-213", false, "2022-08-01T00:00:00.000Z"},
		{"2022", false, "2022-01-01T00:00:00.000Z"},
		{"2022-13-01", false, "invalid"},
		{"2022-02-30", false, "invalid"},
		{"Mon, 01 Aug 2022 10:00:00 +0200", false, "2022-08-01T08:00:00.000Z"},
		// A wrong weekday fails RFC 2822; JavaScript's Date parser then ignores it, as in moment.
		{"Tue, 01 Aug 2022 10:00:00 GMT", false, "2022-08-01T10:00:00.000Z"},
		{"08/01/2022", false, "2022-08-01T00:00:00.000Z"},
		{"August 1, 2022", false, "2022-08-01T00:00:00.000Z"},
		{"not a date", false, "invalid"},
	} {
		m, _ := parseString(tc.in, tc.utc)
		require.Equal(t, tc.want, iso(m), tc.in)
	}

	now := time.Date(2023, 5, 6, 7, 8, 9, 0, time.UTC)
	for _, tc := range []struct {
		in, format string
		strict     bool
		want       string
	}{
		{"2022-01-12", "YYYY-DD-MM", true, "2022-12-01T00:00:00.000Z"},
		{"12/01/22 3:04 pm", "MM/DD/YY h:mm a", true, "2022-12-01T15:04:00.000Z"},
		{"12 o'clock 1 December 70", "h [o'clock] D MMMM YY", false, "1970-12-01T12:00:00.000Z"},
		{"at 2022 somewhere 5", "YYYY M", false, "2022-05-01T00:00:00.000Z"},
		{"at 2022 somewhere 5", "YYYY M", true, "invalid"},
		{"10:30", "HH:mm", true, "2023-05-06T10:30:00.000Z"},
		{"Jun 3", "MMM D", true, "2023-06-03T00:00:00.000Z"},
		{"1659366245", "X", true, "2022-08-01T15:04:05.000Z"},
		{"2022-08-01 12:00 +0200", "YYYY-MM-DD HH:mm Z", true, "2022-08-01T10:00:00.000Z"},
		{"2022-02-30", "YYYY-MM-DD", true, "invalid"},
		{"3rd of March 2020", "Do [of] MMMM YYYY", true, "2020-03-03T00:00:00.000Z"},
		{"2022-08-01.25", "YYYY-MM-DD.SS", true, "2022-08-01T00:00:00.250Z"},
		{"", "YYYY", false, "invalid"},
	} {
		m, _ := parseFormat(tc.in, tc.format, tc.strict, false, now)
		require.Equal(t, tc.want, iso(m), "%s / %s", tc.in, tc.format)
	}
}

func TestMomentAdd(t *testing.T) {
	t.Parallel()
	m := localMoment(time.Date(2022, 1, 31, 10, 0, 0, 0, time.UTC))
	for _, tc := range []struct {
		amount float64
		unit   string
		want   string
	}{
		{1, "months", "2022-02-28T10:00:00.000Z"},
		{1, "quarters", "2022-04-30T10:00:00.000Z"},
		{-1, "years", "2021-01-31T10:00:00.000Z"},
		{2, "weeks", "2022-02-14T10:00:00.000Z"},
		{1.5, "days", "2022-02-02T10:00:00.000Z"},
		{36, "hours", "2022-02-01T22:00:00.000Z"},
		{90, "minutes", "2022-01-31T11:30:00.000Z"},
		{-30, "seconds", "2022-01-31T09:59:30.000Z"},
		{250, "milliseconds", "2022-01-31T10:00:00.250Z"},
	} {
		got, _ := m.add(tc.amount, tc.unit).toISOString()
		require.Equal(t, tc.want, got, "%v %s", tc.amount, tc.unit)
	}
}

package expr

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestIntlNumbersListsAndDates checks the Intl.NumberFormat, Intl.ListFormat and Date
// locale methods against Node.js 20 (full ICU) for the same code.
func TestIntlNumbersListsAndDates(t *testing.T) {
	t.Parallel()
	e := newTestEvaluator(t)
	for _, tc := range []struct {
		expr string
		want any
	}{
		{`new Intl.NumberFormat('en-US').format(1234567.891)`, "1,234,567.891"},
		{`new Intl.NumberFormat().format(0.125)`, "0.125"},
		{`new Intl.NumberFormat().format(-0.0005)`, "-0.001"},
		{`new Intl.NumberFormat().format(1.0005)`, "1.001"},
		{`new Intl.NumberFormat().format(123456789012345680000)`, "123,456,789,012,345,680,000"},
		{`new Intl.NumberFormat().format(1e-7)`, "0"},
		{`new Intl.NumberFormat().format(NaN)`, "NaN"},
		{`new Intl.NumberFormat().format(-Infinity)`, "-∞"},
		{`new Intl.NumberFormat('en-US', {minimumFractionDigits: 2}).format(1234.5)`, "1,234.50"},
		{`new Intl.NumberFormat('en-US', {maximumFractionDigits: 0}).format(2.5)`, "3"},
		{`new Intl.NumberFormat('en-US', {maximumFractionDigits: 0}).format(-2.5)`, "-3"},
		{`new Intl.NumberFormat('en-US', {useGrouping: false}).format(1234567)`, "1234567"},
		{`new Intl.NumberFormat('en-US', {minimumIntegerDigits: 3}).format(7)`, "007"},
		{`new Intl.NumberFormat('en-US', {style: 'percent'}).format(0.256)`, "26%"},
		{`new Intl.NumberFormat('en-US', {style: 'percent', maximumFractionDigits: 1}).format(0.256)`, "25.6%"},
		{`new Intl.NumberFormat('en-US', {style: 'currency', currency: 'USD'}).format(1234.5)`, "$1,234.50"},
		{`new Intl.NumberFormat('en-US', {style: 'currency', currency: 'USD'}).format(-1234.5)`, "-$1,234.50"},
		{`new Intl.NumberFormat('en-US', {style: 'currency', currency: 'EUR'}).format(1234.5)`, "€1,234.50"},
		{`new Intl.NumberFormat('en-US', {style: 'currency', currency: 'JPY'}).format(1234.5)`, "¥1,235"},
		{`new Intl.NumberFormat('en-US', {style: 'currency', currency: 'CHF'}).format(1234.5)`, "CHF\u00a01,234.50"},
		{`new Intl.NumberFormat('en-US', {style: 'currency', currency: 'CAD'}).format(1234.5)`, "CA$1,234.50"},
		{`new Intl.NumberFormat('en-US', {style: 'currency', currency: 'GBP', currencyDisplay: 'code'}).format(1234.5)`, "GBP\u00a01,234.50"},
		{`new Intl.NumberFormat('en-US', {style: 'currency', currency: 'INR'}).format(1234.5)`, "₹1,234.50"},
		{`new Intl.NumberFormat('en-US', {style: 'unit', unit: 'hour', unitDisplay: 'long'}).format(2)`, "2 hours"},
		{`new Intl.NumberFormat('en-US', {style: 'unit', unit: 'hour', unitDisplay: 'long'}).format(1)`, "1 hour"},
		{`new Intl.NumberFormat('en-US', {style: 'unit', unit: 'hour'}).format(2)`, "2 hr"},
		{`new Intl.NumberFormat('en-US', {style: 'unit', unit: 'hour', unitDisplay: 'narrow'}).format(2)`, "2h"},
		{`['year','month','week','day','hour','minute','second','millisecond'].map(u => [1,2].map(n => ['long','short','narrow'].map(d => new Intl.NumberFormat('en-US', {style: 'unit', unit: u, unitDisplay: d}).format(n)).join('|')).join('|')).join(' ; ')`, "1 year|1 yr|1y|2 years|2 yrs|2y ; 1 month|1 mth|1m|2 months|2 mths|2m ; 1 week|1 wk|1w|2 weeks|2 wks|2w ; 1 day|1 day|1d|2 days|2 days|2d ; 1 hour|1 hr|1h|2 hours|2 hr|2h ; 1 minute|1 min|1m|2 minutes|2 min|2m ; 1 second|1 sec|1s|2 seconds|2 sec|2s ; 1 millisecond|1 ms|1ms|2 milliseconds|2 ms|2ms"},
		{`new Intl.NumberFormat('en-US', {maximumSignificantDigits: 3}).format(123456)`, "123,000"},
		{`(1234567.891).toLocaleString()`, "1,234,567.891"},
		{`(1234.5).toLocaleString('en-US', {minimumFractionDigits: 2})`, "1,234.50"},
		{`(1234.5).toLocaleString('de-DE')`, "1.234,5"},
		{`(0.5).toLocaleString(undefined, {style: 'percent'})`, "50%"},
		{`new Date(Date.UTC(2024,0,5,15,4,5)).toLocaleString(undefined, {timeZone: 'UTC'})`, "1/5/2024, 3:04:05 PM"},
		{`new Date(Date.UTC(2024,0,5,15,4,5)).toLocaleDateString(undefined, {timeZone: 'UTC'})`, "1/5/2024"},
		{`new Date(Date.UTC(2024,0,5,15,4,5)).toLocaleTimeString(undefined, {timeZone: 'UTC'})`, "3:04:05 PM"},
		{`new Date(Date.UTC(2024,0,5,15,4,5)).toLocaleString('en-US', {timeZone: 'Europe/Berlin'})`, "1/5/2024, 4:04:05 PM"},
		{`new Date(Date.UTC(2024,0,5,15,4,5)).toLocaleDateString('en-US', {timeZone: 'Asia/Tokyo', weekday: 'long', year: 'numeric', month: 'long', day: 'numeric'})`, "Saturday, January 6, 2024"},
		{`new Date(Date.UTC(2024,0,5,15,4,5)).toLocaleTimeString('en-US', {timeZone: 'America/New_York', hour: '2-digit', minute: '2-digit'})`, "10:04 AM"},
		{`new Intl.ListFormat('en', {type: 'conjunction', style: 'long'}).format(['a','b','c'])`, "a, b, and c"},
		{`new Intl.ListFormat('en', {type: 'conjunction', style: 'short'}).format(['a','b','c'])`, "a, b, & c"},
		{`new Intl.ListFormat('en', {type: 'conjunction', style: 'narrow'}).format(['a','b','c'])`, "a, b, c"},
		{`new Intl.ListFormat('en', {type: 'conjunction', style: 'long'}).format(['a','b'])`, "a and b"},
		{`new Intl.ListFormat('en', {type: 'conjunction', style: 'short'}).format(['a','b'])`, "a & b"},
		{`new Intl.ListFormat('en', {type: 'conjunction', style: 'narrow'}).format(['a','b'])`, "a, b"},
		{`new Intl.ListFormat('en', {type: 'disjunction'}).format(['a','b','c'])`, "a, b, or c"},
		{`new Intl.ListFormat('en', {type: 'disjunction'}).format(['a','b'])`, "a or b"},
		{`new Intl.ListFormat('en', {type: 'unit', style: 'long'}).format(['a','b','c'])`, "a, b, c"},
		{`new Intl.ListFormat('en', {type: 'unit', style: 'narrow'}).format(['a','b','c'])`, "a b c"},
		{`new Intl.ListFormat('en').format(['a'])`, "a"},
		{`new Intl.ListFormat('en').format([])`, ""},
		{`luxon.Duration.fromObject({hours: 2, minutes: 3}).toHuman()`, "2 hours, 3 minutes"},
		{`luxon.Duration.fromObject({hours: 1, minutes: 1, seconds: 30}).toHuman({listStyle: 'long'})`, "1 hour, 1 minute, and 30 seconds"},
		{`luxon.Duration.fromObject({days: 2}).toHuman({unitDisplay: 'short'})`, "2 days"},
		{`(1234.5).toLocaleString("de-DE", {style: "currency", currency: "EUR"})`, "1.234,50\u00a0€"},
		{`(1234567.5).toLocaleString("fr-FR")`, "1\u202f234\u202f567,5"},
		{`(0.256).toLocaleString("de", {style: "percent"})`, "26\u00a0%"},
		{`new Intl.NumberFormat().format(-0)`, "-0"},
	} {
		got, err := e.Evaluate("={{ "+tc.expr+" }}", nil)
		require.NoError(t, err, tc.expr)
		require.Equal(t, tc.want, got, tc.expr)
	}
}

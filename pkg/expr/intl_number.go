package expr

import (
	"cmp"
	"math"
	"strconv"
	"strings"

	"github.com/dop251/goja"
)

// Intl.NumberFormat and Intl.ListFormat for en-US, in Go. Luxon's Duration.toHuman needs
// both; expressions use them through Number.prototype.toLocaleString, which goja otherwise
// mistakes for toString(radix). Styles decimal, percent, currency and unit are rendered as
// ICU does for en-US. For a few other languages (numberLocales) the separators and the
// currency position follow the locale; symbols, units and everything else stay en-US.

// numberLocale is how a language writes numbers.
type numberLocale struct {
	decimal, group string
	minGrouping    int    // digits before the first group separator appears is 3+minGrouping-1
	currencyAfter  bool   // "1.234,50 €" rather than "€ 1.234,50"
	currencySep    string // between symbol and number
	percentSep     string // between number and "%"
}

const (
	nbsp       = "\u00a0"
	narrowNbsp = "\u202f"
)

var enNumbers = numberLocale{decimal: ".", group: ",", minGrouping: 1}

var numberLocales = map[string]numberLocale{
	"de": {decimal: ",", group: ".", minGrouping: 1, currencyAfter: true, currencySep: nbsp, percentSep: nbsp},
	"fr": {decimal: ",", group: narrowNbsp, minGrouping: 1, currencyAfter: true, currencySep: nbsp, percentSep: nbsp},
	"es": {decimal: ",", group: ".", minGrouping: 2, currencyAfter: true, currencySep: nbsp, percentSep: nbsp},
	"it": {decimal: ",", group: ".", minGrouping: 2, currencyAfter: true, currencySep: nbsp},
	"nl": {decimal: ",", group: ".", minGrouping: 1, currencySep: nbsp},
	"pt": {decimal: ",", group: ".", minGrouping: 1, currencySep: nbsp},
	"ru": {decimal: ",", group: nbsp, minGrouping: 1, currencyAfter: true, currencySep: nbsp, percentSep: nbsp},
	"pl": {decimal: ",", group: nbsp, minGrouping: 2, currencyAfter: true, currencySep: nbsp},
}

// currencySymbols are en-US's symbols; other currencies show their code.
var currencySymbols = map[string]string{
	"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "INR": "₹", "CNY": "CN¥", "CAD": "CA$",
	"AUD": "A$", "BRL": "R$", "MXN": "MX$", "KRW": "₩", "NZD": "NZ$", "HKD": "HK$", "ILS": "₪",
	"VND": "₫", "TWD": "NT$", "PHP": "₱", "XAF": "FCFA", "XOF": "F\u202fCFA",
}

// zeroDecimalCurrencies have no minor unit.
var zeroDecimalCurrencies = map[string]bool{"JPY": true, "KRW": true, "VND": true, "CLP": true, "ISK": true, "XAF": true, "XOF": true, "UGX": true, "PYG": true}

var unitNames = map[string][3][2]string{ // unit → [long, short, narrow] × [one, other]
	"year":        {{" year", " years"}, {" yr", " yrs"}, {"y", "y"}},
	"month":       {{" month", " months"}, {" mth", " mths"}, {"m", "m"}},
	"week":        {{" week", " weeks"}, {" wk", " wks"}, {"w", "w"}},
	"day":         {{" day", " days"}, {" day", " days"}, {"d", "d"}},
	"hour":        {{" hour", " hours"}, {" hr", " hr"}, {"h", "h"}},
	"minute":      {{" minute", " minutes"}, {" min", " min"}, {"m", "m"}},
	"second":      {{" second", " seconds"}, {" sec", " sec"}, {"s", "s"}},
	"millisecond": {{" millisecond", " milliseconds"}, {" ms", " ms"}, {"ms", "ms"}},
}

type numberFormat struct {
	loc                  numberLocale
	style                string
	currency, display    string
	unit, unitDisplay    string
	minFrac, maxFrac     int
	minInt               int
	useGrouping          bool
	maxSignificantDigits int
}

func resolveNumberFormat(locales, arg goja.Value, rt *goja.Runtime) *numberFormat {
	f := &numberFormat{loc: enNumbers, style: "decimal", display: "symbol", unitDisplay: "short", minInt: 1, useGrouping: true}
	if l := firstLocale(locales); l != "" {
		lang, _, _ := strings.Cut(strings.ToLower(l), "-")
		if nl, ok := numberLocales[lang]; ok {
			f.loc = nl
		}
	}
	opts := optionReader(rt, arg)
	f.style = cmp.Or(opts.str("style"), f.style)
	f.currency = strings.ToUpper(opts.str("currency"))
	f.display = cmp.Or(opts.str("currencyDisplay"), f.display)
	f.unit = opts.str("unit")
	f.unitDisplay = cmp.Or(opts.str("unitDisplay"), f.unitDisplay)
	if f.style == "currency" && f.currency == "" {
		panic(rt.NewTypeError("Currency code is required with currency style."))
	}

	f.minFrac, f.maxFrac = 0, 3
	switch {
	case f.style == "percent":
		f.maxFrac = 0
	case f.style == "currency" && zeroDecimalCurrencies[f.currency]:
		f.maxFrac = 0
	case f.style == "currency":
		f.minFrac, f.maxFrac = 2, 2
	}
	minSet, maxSet := opts.has("minimumFractionDigits"), opts.has("maximumFractionDigits")
	if minSet {
		f.minFrac = clampDigits(opts.int("minimumFractionDigits"), 0, 100)
	}
	if maxSet {
		f.maxFrac = clampDigits(opts.int("maximumFractionDigits"), 0, 100)
	}
	if minSet && !maxSet && f.maxFrac < f.minFrac {
		f.maxFrac = f.minFrac
	}
	if maxSet && !minSet && f.minFrac > f.maxFrac {
		f.minFrac = f.maxFrac
	}
	if f.minFrac > f.maxFrac {
		panic(rt.NewGoError(newDataError("", "RangeError: maximumFractionDigits value is out of range.")))
	}
	if opts.has("minimumIntegerDigits") {
		f.minInt = clampDigits(opts.int("minimumIntegerDigits"), 1, 21)
	}
	if opts.has("maximumSignificantDigits") {
		f.maxSignificantDigits = clampDigits(opts.int("maximumSignificantDigits"), 1, 21)
	}
	if g := opts.get("useGrouping"); g != nil && !goja.IsUndefined(g) {
		f.useGrouping = g.ToBoolean() || g.String() == "always" || g.String() == "auto"
	}
	return f
}

func clampDigits(n, lo, hi int) int { return max(lo, min(hi, n)) }

func (f *numberFormat) format(x float64) string {
	if math.IsNaN(x) {
		return "NaN"
	}
	sign := ""
	if math.Signbit(x) {
		sign = "-" // also for -0 and what rounds to it, as ICU does
	}
	x = math.Abs(x)
	if f.style == "percent" {
		x *= 100
	}
	num := "∞"
	if !math.IsInf(x, 0) {
		num = f.digits(x)
	}
	switch f.style {
	case "percent":
		return sign + num + f.loc.percentSep + "%"
	case "currency":
		sym := f.currency
		switch f.display {
		case "symbol", "narrowSymbol":
			if s, ok := currencySymbols[f.currency]; ok {
				sym = s
			}
		}
		if f.loc.currencyAfter {
			return sign + num + f.loc.currencySep + sym
		}
		if f.loc == enNumbers && sym != f.currency {
			return sign + sym + num
		}
		return sign + sym + nbspOr(f.loc.currencySep) + num
	case "unit":
		if names, ok := unitNames[f.unit]; ok {
			d := map[string]int{"long": 0, "short": 1, "narrow": 2}[f.unitDisplay]
			plural := 1
			if x == 1 {
				plural = 0
			}
			return sign + num + names[d][plural]
		}
		return sign + num + " " + f.unit
	}
	return sign + num
}

func nbspOr(s string) string {
	if s == "" {
		return nbsp
	}
	return s
}

// digits renders |x| with the fraction and integer digit rules and grouping. Rounding is
// half away from zero on the shortest decimal form of x, as ICU does.
func (f *numberFormat) digits(x float64) string {
	s := strconv.FormatFloat(x, 'f', -1, 64)
	intPart, frac, _ := strings.Cut(s, ".")
	if f.maxSignificantDigits > 0 {
		intPart, frac = roundSignificant(intPart, frac, f.maxSignificantDigits)
	} else {
		intPart, frac = roundFraction(intPart, frac, f.maxFrac)
	}
	for len(frac) < f.minFrac {
		frac += "0"
	}
	for len(intPart) < f.minInt {
		intPart = "0" + intPart
	}
	if f.useGrouping && len(intPart) >= 3+f.loc.minGrouping {
		var b strings.Builder
		for i, r := range intPart {
			if i > 0 && (len(intPart)-i)%3 == 0 {
				b.WriteString(f.loc.group)
			}
			b.WriteRune(r)
		}
		intPart = b.String()
	}
	if frac == "" {
		return intPart
	}
	return intPart + f.loc.decimal + frac
}

// roundFraction rounds the decimal intPart.frac to at most n fraction digits and drops
// trailing zeros.
func roundFraction(intPart, frac string, n int) (string, string) {
	if len(frac) > n {
		up := frac[n] >= '5'
		digits := []byte(intPart + frac[:n])
		if up {
			digits = incrementDecimal(digits)
		}
		cut := len(digits) - n
		intPart, frac = string(digits[:cut]), string(digits[cut:])
	}
	return intPart, strings.TrimRight(frac, "0")
}

// roundSignificant keeps n significant digits of intPart.frac.
func roundSignificant(intPart, frac string, n int) (string, string) {
	all := intPart + frac
	lead := len(all) - len(strings.TrimLeft(all, "0"))
	keep := lead + n
	if keep >= len(all) {
		return intPart, strings.TrimRight(frac, "0")
	}
	digits := []byte(all[:keep])
	if all[keep] >= '5' {
		digits = incrementDecimal(digits)
	}
	grown := len(digits) - keep
	for len(digits) < len(all)+grown {
		digits = append(digits, '0')
	}
	cut := len(intPart) + grown
	return strings.TrimLeft(string(digits[:cut]), "0"), strings.TrimRight(string(digits[cut:]), "0")
}

// incrementDecimal adds one to a string of decimal digits, growing it on overflow.
func incrementDecimal(d []byte) []byte {
	for i := len(d) - 1; i >= 0; i-- {
		if d[i] < '9' {
			d[i]++
			return d
		}
		d[i] = '0'
	}
	return append([]byte{'1'}, d...)
}

// firstLocale returns the first requested locale: a string, or the first of an array.
func firstLocale(v goja.Value) string {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return ""
	}
	if o, ok := v.(*goja.Object); ok && o.ClassName() == "Array" {
		if first := o.Get("0"); first != nil && !goja.IsUndefined(first) {
			return first.String()
		}
		return ""
	}
	return v.String()
}

func installNumberFormat(rt *goja.Runtime, intl *goja.Object) error {
	ctor := rt.ToValue(func(call goja.ConstructorCall) *goja.Object {
		f := resolveNumberFormat(call.Argument(0), call.Argument(1), rt)
		_ = call.This.Set("format", func(c goja.FunctionCall) goja.Value {
			return rt.ToValue(f.format(c.Argument(0).ToFloat()))
		})
		_ = call.This.Set("resolvedOptions", func(goja.FunctionCall) goja.Value {
			o := rt.NewObject()
			_ = o.Set("locale", "en-US")
			_ = o.Set("numberingSystem", "latn")
			_ = o.Set("style", f.style)
			_ = o.Set("minimumIntegerDigits", f.minInt)
			_ = o.Set("minimumFractionDigits", f.minFrac)
			_ = o.Set("maximumFractionDigits", f.maxFrac)
			_ = o.Set("useGrouping", f.useGrouping)
			return o
		})
		return nil
	})
	if err := intl.Set("NumberFormat", ctor); err != nil {
		return err
	}
	toLocale := func(call goja.FunctionCall) goja.Value {
		f := resolveNumberFormat(call.Argument(0), call.Argument(1), rt)
		return rt.ToValue(f.format(call.This.ToFloat()))
	}
	return rt.Get("Number").ToObject(rt).Get("prototype").ToObject(rt).
		DefineDataProperty("toLocaleString", rt.ToValue(toLocale), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

func installListFormat(rt *goja.Runtime, intl *goja.Object) error {
	ctor := rt.ToValue(func(call goja.ConstructorCall) *goja.Object {
		opts := optionReader(rt, call.Argument(1))
		typ, style := cmp.Or(opts.str("type"), "conjunction"), cmp.Or(opts.str("style"), "long")
		_ = call.This.Set("format", func(c goja.FunctionCall) goja.Value {
			var list []string
			if o, ok := c.Argument(0).(*goja.Object); ok {
				rt.ForOf(o, func(v goja.Value) bool {
					list = append(list, v.String())
					return true
				})
			}
			return rt.ToValue(formatList(list, typ, style))
		})
		return nil
	})
	return intl.Set("ListFormat", ctor)
}

// formatList joins items as en-US does: "a, b, and c", "a & b", "a, b, or c", "a b c".
func formatList(items []string, typ, style string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	sep, pair, last := ", ", "", ""
	switch {
	case typ == "unit" && style == "narrow":
		return strings.Join(items, " ")
	case typ == "unit":
		return strings.Join(items, ", ")
	case typ == "disjunction":
		pair, last = " or ", ", or "
	case style == "short":
		pair, last = " & ", ", & "
	case style == "narrow":
		pair, last = ", ", ", "
	default:
		pair, last = " and ", ", and "
	}
	if len(items) == 2 {
		return items[0] + pair + items[1]
	}
	return strings.Join(items[:len(items)-1], sep) + last + items[len(items)-1]
}

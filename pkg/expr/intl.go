package expr

import (
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
)

// goja has no Intl. Luxon needs Intl.DateTimeFormat for time-zone offsets (IANAZone.offset
// formats a date in the zone and reads the parts back), zone validation, zone names (the
// ZZZZ/ZZZZZ tokens) and localised output (toLocaleString, the D/t/f macro tokens). This is a
// Go implementation of that constructor, backed by time.LoadLocation, that renders the en-US
// locale whatever locale is asked for; Date's toLocale*String methods use it too.
// Intl.NumberFormat and Intl.ListFormat are in intl_number.go. RelativeTimeFormat, Locale and
// PluralRules are absent on purpose: Luxon then takes its English fallbacks (toRelative).

// dtfOptions are the resolved options of one Intl.DateTimeFormat.
type dtfOptions struct {
	loc      *time.Location
	zoneName string
	hour12   bool
	cycle    string // h11, h12, h23 or h24

	year, month, day, weekday, era string
	hour, minute, second           string
	timeZoneName                   string
	fractionalSecondDigits         int
}

var locations sync.Map // zone name → *time.Location; LoadLocation reads the zone files each time

func loadLocation(name string) (*time.Location, error) {
	if l, ok := locations.Load(name); ok {
		return l.(*time.Location), nil
	}
	var (
		l   *time.Location
		err error
	)
	switch strings.ToUpper(name) {
	case "UTC", "ETC/UTC", "GMT", "ETC/GMT", "Z":
		l = time.UTC
	default:
		l, err = time.LoadLocation(name)
		if err != nil {
			return nil, err
		}
	}
	locations.Store(name, l)
	return l, nil
}

// systemZoneName is the zone that Intl reports as the system's, and that a DateTimeFormat
// without a timeZone option uses.
func systemZoneName() string {
	if n := time.Local.String(); n != "" && n != "Local" {
		return n
	}
	return "UTC"
}

func installIntl(rt *goja.Runtime) error {
	intl := rt.NewObject()
	ctor := rt.ToValue(func(call goja.ConstructorCall) *goja.Object {
		newDateTimeFormat(rt, call.This, resolveDTFOptions(rt, call.Argument(1), "any", "date"))
		return nil
	}).(*goja.Object)
	if err := ctor.Set("supportedLocalesOf", func(call goja.FunctionCall) goja.Value {
		return rt.NewArray("en-US")
	}); err != nil {
		return err
	}
	if err := intl.Set("DateTimeFormat", ctor); err != nil {
		return err
	}
	if err := installNumberFormat(rt, intl); err != nil {
		return err
	}
	if err := installListFormat(rt, intl); err != nil {
		return err
	}
	if err := installDateLocaleMethods(rt); err != nil {
		return err
	}
	return rt.GlobalObject().DefineDataProperty("Intl", intl, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// installDateLocaleMethods makes Date's toLocaleString, toLocaleDateString and
// toLocaleTimeString format through the DateTimeFormat above, with the spec's defaults for
// each, instead of goja's fixed layouts that ignore their arguments.
func installDateLocaleMethods(rt *goja.Runtime) error {
	proto := rt.Get("Date").ToObject(rt).Get("prototype").ToObject(rt)
	for name, kind := range map[string][2]string{
		"toLocaleString": {"any", "all"}, "toLocaleDateString": {"date", "date"}, "toLocaleTimeString": {"time", "time"},
	} {
		method := rt.ToValue(func(call goja.FunctionCall) goja.Value {
			o := resolveDTFOptions(rt, call.Argument(1), kind[0], kind[1])
			ms := call.This.ToObject(rt).Get("getTime")
			get, ok := goja.AssertFunction(ms)
			if !ok {
				panic(rt.NewTypeError("this is not a Date object."))
			}
			t, err := get(call.This)
			if err != nil {
				panic(err)
			}
			if f := t.ToFloat(); math.IsNaN(f) {
				return rt.ToValue("Invalid Date")
			}
			return rt.ToValue(joinParts(o.parts(time.UnixMilli(t.ToInteger()).In(o.loc))))
		})
		if err := proto.DefineDataProperty(name, method, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
			return err
		}
	}
	return nil
}

// options reads an Intl options argument.
type options struct{ obj *goja.Object }

func optionReader(rt *goja.Runtime, arg goja.Value) options {
	if arg == nil || goja.IsUndefined(arg) || goja.IsNull(arg) {
		return options{}
	}
	return options{obj: arg.ToObject(rt)}
}

func (o options) get(name string) goja.Value {
	if o.obj == nil {
		return nil
	}
	return o.obj.Get(name)
}

func (o options) has(name string) bool {
	v := o.get(name)
	return v != nil && !goja.IsUndefined(v)
}

func (o options) str(name string) string {
	if !o.has(name) {
		return ""
	}
	return o.get(name).String()
}

func (o options) int(name string) int {
	if !o.has(name) {
		return 0
	}
	return int(o.get(name).ToInteger())
}

// resolveDTFOptions reads DateTimeFormat options. As the spec's ToDateTimeOptions, when none
// of the required components ("date", "time" or "any") is asked for, the defaults ("date",
// "time" or "all") are added. An unknown time zone throws a RangeError.
func resolveDTFOptions(rt *goja.Runtime, arg goja.Value, required, defaults string) *dtfOptions {
	o := &dtfOptions{hour12: true, cycle: "h12"}
	opts := optionReader(rt, arg)

	o.zoneName = opts.str("timeZone")
	if o.zoneName == "" {
		o.zoneName = systemZoneName()
	}
	loc, err := loadLocation(o.zoneName)
	if err != nil {
		panic(rt.NewGoError(fmt.Errorf("RangeError: Invalid time zone specified: %s", o.zoneName)))
	}
	o.loc = loc

	if c := opts.str("hourCycle"); c != "" {
		o.cycle = c
		o.hour12 = c == "h11" || c == "h12"
	}
	if opts.has("hour12") {
		o.hour12 = opts.get("hour12").ToBoolean()
		o.cycle = "h23"
		if o.hour12 {
			o.cycle = "h12"
		}
	}

	o.year, o.month, o.day = opts.str("year"), opts.str("month"), opts.str("day")
	o.weekday, o.era = opts.str("weekday"), opts.str("era")
	o.hour, o.minute, o.second = opts.str("hour"), opts.str("minute"), opts.str("second")
	o.timeZoneName = opts.str("timeZoneName")
	o.fractionalSecondDigits = opts.int("fractionalSecondDigits")
	dateStyle, timeStyle := opts.str("dateStyle"), opts.str("timeStyle")
	applyStyles(o, dateStyle, timeStyle)

	hasDate := o.year != "" || o.month != "" || o.day != "" || o.weekday != ""
	hasTime := o.hour != "" || o.minute != "" || o.second != "" || o.fractionalSecondDigits > 0
	need := dateStyle == "" && timeStyle == ""
	if required == "date" || required == "any" {
		need = need && !hasDate
	}
	if required == "time" || required == "any" {
		need = need && !hasTime
	}
	if need && (defaults == "date" || defaults == "all") {
		o.year, o.month, o.day = "numeric", "numeric", "numeric"
	}
	if need && (defaults == "time" || defaults == "all") {
		o.hour, o.minute, o.second = "numeric", "numeric", "numeric"
	}
	return o
}

// applyStyles maps dateStyle/timeStyle to the components en-US uses for them.
func applyStyles(o *dtfOptions, dateStyle, timeStyle string) {
	switch dateStyle {
	case "full":
		o.weekday, o.month, o.day, o.year = "long", "long", "numeric", "numeric"
	case "long":
		o.month, o.day, o.year = "long", "numeric", "numeric"
	case "medium":
		o.month, o.day, o.year = "short", "numeric", "numeric"
	case "short":
		o.month, o.day, o.year = "numeric", "numeric", "2-digit"
	}
	switch timeStyle {
	case "full":
		o.hour, o.minute, o.second, o.timeZoneName = "numeric", "2-digit", "2-digit", "long"
	case "long":
		o.hour, o.minute, o.second, o.timeZoneName = "numeric", "2-digit", "2-digit", "short"
	case "medium":
		o.hour, o.minute, o.second = "numeric", "2-digit", "2-digit"
	case "short":
		o.hour, o.minute = "numeric", "2-digit"
	}
}

func newDateTimeFormat(rt *goja.Runtime, this *goja.Object, o *dtfOptions) {
	timeOf := func(call goja.FunctionCall) time.Time {
		ms := float64(time.Now().UnixMilli())
		if d := call.Argument(0); !goja.IsUndefined(d) {
			ms = d.ToFloat()
		}
		if math.IsNaN(ms) || math.IsInf(ms, 0) {
			panic(rt.NewGoError(fmt.Errorf("RangeError: Invalid time value")))
		}
		return time.UnixMilli(int64(ms)).In(o.loc)
	}
	_ = this.Set("format", func(call goja.FunctionCall) goja.Value {
		return rt.ToValue(joinParts(o.parts(timeOf(call))))
	})
	_ = this.Set("formatToParts", func(call goja.FunctionCall) goja.Value {
		parts := o.parts(timeOf(call))
		out := make([]any, len(parts))
		for i, p := range parts {
			obj := rt.NewObject()
			_ = obj.Set("type", p.typ)
			_ = obj.Set("value", p.value)
			out[i] = obj
		}
		return rt.NewArray(out...)
	})
	_ = this.Set("resolvedOptions", func(goja.FunctionCall) goja.Value {
		r := rt.NewObject()
		_ = r.Set("locale", "en-US")
		_ = r.Set("calendar", "gregory")
		_ = r.Set("numberingSystem", "latn")
		_ = r.Set("timeZone", o.zoneName)
		for name, val := range map[string]string{
			"year": o.year, "month": o.month, "day": o.day, "weekday": o.weekday, "era": o.era,
			"hour": o.hour, "minute": o.minute, "second": o.second, "timeZoneName": o.timeZoneName,
		} {
			if val != "" {
				_ = r.Set(name, val)
			}
		}
		if o.hour != "" {
			_ = r.Set("hourCycle", o.cycle)
			_ = r.Set("hour12", o.hour12)
		}
		return r
	})
}

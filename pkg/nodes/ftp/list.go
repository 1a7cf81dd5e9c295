package ftp

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// entry is one line of an FTP directory listing as node-ftp parses it.
type entry struct {
	// unix is the ls -l form; the rest is the MS-DOS form (name, type, size, date only).
	unix   bool
	typ    string
	name   string
	target string
	link   bool
	sticky bool
	rights [3]string
	acl    bool
	owner  string
	group  string
	size   float64
	date   *time.Time
}

// The two listing formats node-ftp understands.
var (
	listUnix = regexp.MustCompile(`^([\-ld])((?:[\-r][\-w][\-xstT]){3})(\+)?\s+\d+\s+(\S+)\s+(\S+)\s+(\d+)\s+(?:(\w{3})\s+(\d{1,2})\s+(\d{1,2}):(\d{2})|(\w{3})\s+(\d{1,2})\s+(\d{4}))\s+(.+)$`)
	listDOS  = regexp.MustCompile(`^(\d{2})[\-/](\d{2})[\-/](\d{2,4})\s+(\d{2}):(\d{2})\s?([AaMmPp]{1,2})\s+(?:(\d+)|(<DIR>))\s+(.+)$`)
	months   = map[string]time.Month{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
		"jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12}
)

// parseListLine reads one listing line; false for lines in neither format ("total 12").
// Times without a zone are taken as UTC (node-ftp takes them in the n8n host's zone).
func parseListLine(line string, now time.Time) (entry, bool) {
	if m := listUnix.FindStringSubmatch(line); m != nil {
		e := entry{unix: true, typ: m[1], owner: m[4], group: m[5], acl: m[3] == "+"}
		perm := m[2]
		for i := range 3 {
			e.rights[i] = strings.ReplaceAll(perm[i*3:i*3+3], "-", "")
		}
		switch other := e.rights[2]; {
		case strings.HasSuffix(other, "t"):
			e.rights[2] = other[:len(other)-1] + "x"
			e.sticky = true
		case strings.HasSuffix(other, "T"):
			e.rights[2] = other[:len(other)-1]
			e.sticky = true
		}
		e.size, _ = strconv.ParseFloat(m[6], 64)
		if m[7] != "" {
			month, ok := months[strings.ToLower(m[7])]
			if ok {
				day, _ := strconv.Atoi(m[8])
				hour, _ := strconv.Atoi(m[9])
				minute, _ := strconv.Atoi(m[10])
				year := now.Year()
				d := time.Date(year, month, day, hour, minute, 0, 0, time.UTC)
				// The year is left out for recent dates: one more than a day ahead is last
				// year's, one more than six months old next year's, as node-ftp reckons.
				if d.Sub(now) > 28*time.Hour {
					d = time.Date(year-1, month, day, hour, minute, 0, 0, time.UTC)
				}
				if now.Sub(d) > 186*24*time.Hour {
					d = time.Date(year+1, month, day, hour, minute, 0, 0, time.UTC)
				}
				e.date = &d
			}
		} else if month, ok := months[strings.ToLower(m[11])]; ok {
			day, _ := strconv.Atoi(m[12])
			year, _ := strconv.Atoi(m[13])
			d := time.Date(year, month, day, 0, 0, 0, 0, time.UTC)
			e.date = &d
		}
		e.name = m[14]
		if e.typ == "l" {
			if name, target, ok := strings.Cut(m[14], " -> "); ok {
				e.name, e.target = name, target
			} else {
				// node-ftp cuts at a missing arrow's index (-1): an empty name, the rest shifted.
				e.name, e.target = "", m[14][3:]
			}
			e.link = true
		}
		return e, true
	}
	if m := listDOS.FindStringSubmatch(line); m != nil {
		e := entry{name: m[9], typ: "-"}
		if m[8] != "" {
			e.typ = "d"
		} else {
			e.size, _ = strconv.ParseFloat(m[7], 64)
		}
		month, _ := strconv.Atoi(m[1])
		day, _ := strconv.Atoi(m[2])
		year, _ := strconv.Atoi(m[3])
		hour, _ := strconv.Atoi(m[4])
		minute, _ := strconv.Atoi(m[5])
		if year < 70 {
			year += 2000
		} else {
			year += 1900
		}
		ampm := strings.ToLower(m[6][:1])
		if ampm == "p" && hour < 12 {
			hour += 12
		} else if ampm == "a" && hour == 12 {
			hour = 0
		}
		d := time.Date(year, time.Month(month), day, hour, minute, 0, 0, time.UTC)
		e.date = &d
		return e, true
	}
	return entry{}, false
}

// object is the entry as n8n outputs it: node-ftp's fields with date renamed modifyTime, and
// the entry's path.
func (e entry) object(path string) *workflow.Object {
	o := workflow.NewObject(12)
	if e.unix {
		o.Set("type", e.typ)
		o.Set("name", e.name)
		if e.link {
			o.Set("target", e.target)
		}
		o.Set("sticky", e.sticky)
		rights := workflow.NewObject(3)
		rights.Set("user", e.rights[0])
		rights.Set("group", e.rights[1])
		rights.Set("other", e.rights[2])
		o.Set("rights", rights)
		o.Set("acl", e.acl)
		o.Set("owner", e.owner)
		o.Set("group", e.group)
		o.Set("size", e.size)
	} else {
		o.Set("name", e.name)
		o.Set("type", e.typ)
		o.Set("size", e.size)
	}
	o.Set("modifyTime", isoTime(e.date))
	o.Set("path", path)
	return o
}

// isoTime is a time as JSON writes a JavaScript Date; nil for none.
func isoTime(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}

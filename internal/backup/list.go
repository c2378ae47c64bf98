package backup

import "time"

// Entry is what ListBackups filters and pages over.
type Entry struct {
	Arn     string
	Table   string
	Created time.Time
	Type    string // USER or SYSTEM
}

// Filter is ListBackups' request, its times already decoded.
type Filter struct {
	Table        string // "" for every table
	Lower, Upper *time.Time
	Type         string // USER, SYSTEM, AWS_BACKUP or ALL; "" means USER
	StartAfter   string // ExclusiveStartBackupArn
	Limit        int    // 0 means no limit
}

// Page returns the entries (given in creation order) the filter selects,
// at most Limit of them after StartAfter, and whether more remain.
func (f Filter) Page(all []Entry) (page []Entry, more bool) {
	started := f.StartAfter == ""
	for _, e := range all {
		if !started {
			started = e.Arn == f.StartAfter
			continue
		}
		if !f.keeps(e) {
			continue
		}
		if f.Limit > 0 && len(page) == f.Limit {
			return page, true
		}
		page = append(page, e)
	}
	return page, false
}

// keeps reports whether e passes the table, time and type filters; the
// time range includes its bounds.
func (f Filter) keeps(e Entry) bool {
	switch {
	case f.Table != "" && e.Table != f.Table:
		return false
	case f.Lower != nil && e.Created.Before(*f.Lower):
		return false
	case f.Upper != nil && e.Created.After(*f.Upper):
		return false
	}
	return f.Type == "ALL" || e.Type == typeOr(f.Type)
}

func typeOr(t string) string {
	if t == "" {
		return "USER"
	}
	return t
}

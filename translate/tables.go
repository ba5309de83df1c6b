package translate

import (
	"github.com/zevo/zevo/dialects"
	model "github.com/zevo/zevo/event"
	"github.com/zevo/zevo/mappings"
)

// sourceTable is the table whose rules the event path applies
// (pathRules): the one shipped into the target's dialect, with the
// user's rules over it, and its source dialect; nil when none is.
// pathRules applies one table's rules (TestOneTableIntoEachDialect holds
// the registry to it).
func (t *Translator) sourceTable() (*mappings.Table, *model.Dialect) {
	to, ok := dialects.ByName(t.opt.To.Name)
	if !ok {
		return nil, nil
	}
	for _, tb := range t.tables.Into(to.Name) {
		if from, ok := dialects.ByName(tb.From); ok {
			return tb, from
		}
	}
	return nil, nil
}

// ownLine reports whether a line is of dialect d as the dialects'
// detection tells it: a marked dialect's (Dialect.Marked) when it is
// sure of it, another's when no marked dialect is.
func ownLine(d *model.Dialect) func(line []byte) bool {
	if d.Marked {
		return func(line []byte) bool { return d.Detect(line) == model.Sure }
	}
	return func(line []byte) bool {
		for _, m := range dialects.All {
			if m.Marked && m.Detect(line) == model.Sure {
				return false
			}
		}
		return true
	}
}

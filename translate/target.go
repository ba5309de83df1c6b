package translate

import (
	"slices"
	"sync"

	"github.com/tidwall/gjson"
	"github.com/zevo/zevo/dialects"
	model "github.com/zevo/zevo/event"
)

// Form is one dialect of the registry at one version: one of its
// Targets, or the dialect itself when it has none.
type Form struct {
	Name    string   // as zevo prints it ("zero@2")
	Aliases []string // other names it is given by
	Dialect *model.Dialect
	Version int           // its encoder's EncodeOptions.Version
	target  *model.Target // nil: the dialect has no Targets
}

func (f *Form) String() string { return f.Name }

// Names lists f's name and aliases.
func (f *Form) Names() []string { return append([]string{f.Name}, f.Aliases...) }

// forms are every dialect's forms, in the registry's order, a dialect's
// default first.
var forms = sync.OnceValue(func() []*Form {
	var out []*Form
	for _, d := range dialects.All {
		if len(d.Targets) == 0 {
			out = append(out, &Form{Name: d.Name, Aliases: d.Aliases, Dialect: d})
			continue
		}
		for i := range d.Targets {
			v := &d.Targets[i]
			f := &Form{Name: v.Name, Aliases: v.Aliases, Dialect: d, Version: v.Version, target: v}
			if i == 0 && !slices.Contains(f.Names(), d.Name) {
				// The dialect's name stands for its default (Targets).
				f.Aliases = append(slices.Clone(f.Aliases), d.Name)
			}
			out = append(out, f)
		}
	}
	return out
})

// defaultForm is the form of dialect d its name stands for.
func defaultForm(d *model.Dialect) *Form {
	for _, f := range forms() {
		if f.Dialect == d {
			return f
		}
	}
	return nil
}

// targetHolds is the fields the target's clients read, or nil when the
// translator writes all it is given (--unmapped keep, a target whose
// clients read any field).
func (t *Translator) targetHolds() func(key string, v gjson.Result) bool {
	if t.opt.Unmapped == Keep || t.opt.To == nil || t.opt.To.target == nil {
		return nil
	}
	return t.opt.To.target.Holds
}

// lacks is the types the target has not, that its dialect's default
// version has (nil: none).
func (t *Translator) lacks() map[string]bool {
	if v := t.opt.To.target; v != nil && v.Lacks != nil {
		return v.Lacks()
	}
	return nil
}

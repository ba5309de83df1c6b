package translate

import "github.com/zevo/zevo/dialects/zero"

// isZeroInput reports the events a Zero client writes to Zero, not Zero
// to its clients: never Zero output.
func isZeroInput(typ string) bool { return typ == "message" || typ == "prompt" }

// targetShape is the shape of the Zero events the translator writes, or
// nil when it writes all it is given (EvoScientist output, --unmapped keep)
// or when its encoder decides (the event path's own targets).
func (t *Translator) targetShape() *zero.Shape {
	switch {
	case t.opt.Unmapped == Keep || t.opt.To == EvoSci || eventOnly(t.opt.To):
		return nil
	case t.opt.To == Zero1:
		return zero.EventShape(1)
	}
	return zero.EventShape(2)
}

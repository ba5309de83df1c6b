package translate

import (
	"fmt"
	"github.com/zevo/zevo/dialects/zero"
)

// newRunID names a run zevo opens in Zero output: --run-id (then .2, .3,
// …) or Zero's own run_<UTC time>_<6 hex> format.
func (t *Translator) newRunID() string {
	t.runsOpened++
	if t.opt.RunID != "" {
		if t.runsOpened == 1 {
			return t.opt.RunID
		}
		return fmt.Sprintf("%s.%d", t.opt.RunID, t.runsOpened)
	}
	return zero.NewRunID(t.opt.Now(), t.opt.Rand)
}

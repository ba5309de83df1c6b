package translate

import (
	"fmt"

	"github.com/zevo/zevo/dialects"
)

// newRunID names a run zevo opens: --run-id (then .2, .3, …) or a new id
// of the runs' dialect's own format (dialects.Runs).
func (t *Translator) newRunID() string {
	t.runsOpened++
	if t.opt.RunID != "" {
		if t.runsOpened == 1 {
			return t.opt.RunID
		}
		return fmt.Sprintf("%s.%d", t.opt.RunID, t.runsOpened)
	}
	return dialects.Runs.RunIDs.New(t.opt.Now(), t.opt.Rand)
}

package bench

import "github.com/zevo/zevo/translate"

// The translation targets the tests name, as users name them.
var (
	toZero   = translate.MustTarget("zero")
	toEvoSci = translate.MustTarget("evosci")
)

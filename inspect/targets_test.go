package inspect

import "github.com/zevo/zevo/translate"

// The translation targets the tests name, as users name them.
var (
	toZero   = translate.MustTarget("zero")
	toZero1  = translate.MustTarget("zero@1")
	toEvoSci = translate.MustTarget("evosci")
)

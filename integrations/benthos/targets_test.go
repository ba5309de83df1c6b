package benthos

import "github.com/zevo/zevo/translate"

// The translation target the tests name, as users name it.
var toZero = translate.MustTarget("zero")

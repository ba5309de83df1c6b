package inspect

import "github.com/zevo/zevo/translate"

// The translation targets the tests name, as users name them.
var (
	toZero   = mustTarget("zero")
	toZero1  = mustTarget("zero@1")
	toEvoSci = mustTarget("evosci")
)

func mustTarget(name string) translate.Format {
	f, err := translate.ParseTarget(name)
	if err != nil {
		panic(err)
	}
	return f
}

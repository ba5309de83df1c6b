package bench

import "github.com/zevo/zevo/translate"

// The translation targets the tests name, as users name them.
var (
	toZero   = mustTarget("zero")
	toEvoSci = mustTarget("evosci")
)

func mustTarget(name string) translate.Format {
	f, err := translate.ParseTarget(name)
	if err != nil {
		panic(err)
	}
	return f
}

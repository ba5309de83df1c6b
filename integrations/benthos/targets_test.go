package benthos

import "github.com/zevo/zevo/translate"

// The translation target the tests name, as users name it.
var toZero = mustTarget("zero")

func mustTarget(name string) translate.Format {
	f, err := translate.ParseTarget(name)
	if err != nil {
		panic(err)
	}
	return f
}

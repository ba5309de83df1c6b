package translate

// The targets the tests name, as users name them.
var (
	Zero   = mustTarget("zero")
	Zero1  = mustTarget("zero@1")
	EvoSci = mustTarget("evosci")
)

func mustTarget(name string) Format {
	f, err := ParseTarget(name)
	if err != nil {
		panic(err)
	}
	return f
}

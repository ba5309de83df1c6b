package translate

// The targets the tests name, as users name them.
var (
	Zero   = MustTarget("zero")
	Zero1  = MustTarget("zero@1")
	EvoSci = MustTarget("evosci")
)

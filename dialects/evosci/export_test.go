package evosci

// NewPlainEncoder is NewEncoder writing every line through its object,
// for the external tests that compare the two.
func NewPlainEncoder(opt EncodeOptions, emit func([]byte) error) *Encoder {
	e := NewEncoder(opt, emit)
	e.plain = true
	return e
}

package zero

// SetPlain makes e build every line member by member (Encoder.plain).
func SetPlain(e *Encoder) { e.plain = true }

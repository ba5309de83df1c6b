package swar

// The scanners: each looks sixteen bytes at a time at whole blocks where
// the processor allows (blocks), then eight at a time with the portable
// code.

// PlainGo returns the index of the first byte at or after i that Go's
// encoding/json writes other than as itself ('"', '\\', a control
// character, '<', '>', '&' or a non-ASCII byte); len(b) when none.
func PlainGo(b []byte, i int) int {
	if len(b)-i >= blockLen {
		j, found := plainGoBlocks(b, i)
		if found {
			return j
		}
		i = j
	}
	return plainGo(b, i)
}

// PlainPython returns the index of the first byte at or after i that
// Python's json.dumps writes other than as itself ('"', '\\', a control
// character, 0x7f or a non-ASCII byte); len(b) when none.
func PlainPython(b []byte, i int) int {
	if len(b)-i >= blockLen {
		j, found := plainPythonBlocks(b, i)
		if found {
			return j
		}
		i = j
	}
	return plainPython(b, i)
}

// blockLen is the length of the blocks: with fewer bytes left, PlainGo
// and PlainPython make no call to theirs (the end of most strings).
const blockLen = 16

// MayHoldRedactWord reports whether b holds a word the default redaction
// patterns need, "sk-" or "api" or "bea" (the last two in any case), or
// an escape that may spell a letter or '-' (\u0040 to \u007f, \u002d):
// false means certainly none, true certainly one.
func MayHoldRedactWord(b []byte) bool {
	if !blocks {
		return mayHoldRedactWord(b)
	}
	// The last positions, fewer than 21, are looked at in a copy followed
	// by zero bytes, which no word or escape has: long enough for two
	// blocks, which cover them all, and for one block after any hit, which
	// covers those that remain.
	var pad [48]byte
	padded := false
	for {
		i, hit := redactBlocks(b)
		if hit {
			if hasRedactWord(b[i:]) {
				return true
			}
			b = b[i+1:]
			continue
		}
		if padded || i >= len(b) {
			return false
		}
		copy(pad[:], b[i:])
		b, padded = pad[:], true
	}
}

// MaskPlainGo flags the bytes of the little-endian word x that Go's
// encoding/json writes other than as themselves: the lowest flagged byte
// (high bit) is the first such byte, those above it may be flagged
// falsely. For a caller that copies the word as it tests it.
func MaskPlainGo(x uint64) uint64 { return maskPlainGo(x) }

// MaskPlainPython is MaskPlainGo for Python's json.dumps.
func MaskPlainPython(x uint64) uint64 { return maskPlainPython(x) }

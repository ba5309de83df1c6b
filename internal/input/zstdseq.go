package input

// The hot half of zstd decoding: executing a block's sequences, with a
// bit reader the compiler can inline and tables that give a code's
// value baseline and extra bits in the same lookup as the next state.

import (
	"encoding/binary"
	"math/bits"
)

// zstdSlack is how far past a block's end the decoder may write (room
// nextBlock leaves), so that short copies move whole words.
const zstdSlack = 32

// seqBits reads a bitstream from its end, as backBits does, a word at a
// time: c holds the eight bytes from off (off is negative when the
// stream is shorter, the missing bytes reading as zeros below the
// start), and its top used bits have been read.
type seqBits struct {
	b    []byte
	off  int
	c    uint64
	used uint
}

func (r *seqBits) init(b []byte) error {
	if len(b) == 0 || b[len(b)-1] == 0 {
		return zstdErr("bitstream without its end mark")
	}
	r.b = b
	r.off = len(b) - 8
	// The end mark and the zeros above it are read already.
	r.used = uint(bits.LeadingZeros8(b[len(b)-1])) + 1
	if r.off >= 0 {
		r.c = binary.LittleEndian.Uint64(b[r.off:])
		return nil
	}
	var c uint64
	for i := len(b) - 1; i >= 0; i-- {
		c = c<<8 | uint64(b[i])
	}
	r.c = c << (8 * uint(-r.off))
	return nil
}

// left is how many bits are unread, negative when more were read than
// the stream holds.
func (r *seqBits) left() int { return r.off*8 + 64 - int(r.used) }

// advance moves c down the stream so that at least 56 bits are unread
// in it; false near the stream's start, where refillSlow does. (Apart,
// so that advance is inlined.)
func (r *seqBits) advance() bool {
	off := r.off - int(r.used>>3)
	if off < 0 {
		return false
	}
	r.off = off
	r.used &= 7
	r.c = binary.LittleEndian.Uint64(r.b[off : off+8])
	return true
}

// refillSlow is advance near the stream's start: c then holds all the
// bits left.
func (r *seqBits) refillSlow() {
	p := r.left()
	nb := 0 // bytes holding unread bits
	if p > 0 {
		nb = (p + 7) >> 3
	}
	if nb >= 8 {
		r.off = nb - 8
		r.c = binary.LittleEndian.Uint64(r.b[r.off:])
	} else {
		r.off = nb - 8
		var c uint64
		for i := nb - 1; i >= 0; i-- {
			c = c<<8 | uint64(r.b[i])
		}
		r.c = c << (8 * uint(8-nb))
	}
	r.used = uint(r.off*8 + 64 - p)
}

// get reads n bits (at most 56 since the last refill). Past the
// stream's start it reads garbage, and left goes negative: execute
// checks the stream was read exactly before it uses what was read.
// (Shifts masked to 63 need no code for shifts of 64 and more.)
func (r *seqBits) get(n uint8) uint32 {
	v := r.c << (r.used & 63) >> 1 >> ((63 - n) & 63)
	r.used += uint(n)
	return uint32(v)
}

// seqEntry is an FSE state of a sequence table: its code's value
// baseline and extra bits, then the next state's baseline and bits.
type seqEntry struct {
	base  uint32
	extra uint8
	nb    uint8
	next  uint16
}

// seqTable is sized for the largest accuracy (9), so that a state
// masked to it is in range without a bounds check.
type seqTable [512]seqEntry

const (
	seqLL = iota
	seqOF
	seqML
)

// fill makes t from an FSE table of literal length, offset or match
// length codes.
func (t *seqTable) fill(f *fseTable, kind int) error {
	for u, e := range f.tab {
		s := int(e.sym)
		var base uint32
		var extra uint8
		switch kind {
		case seqLL:
			if s >= len(zstdLLBase) {
				return zstdErr("code out of range")
			}
			base, extra = zstdLLBase[s], zstdLLBits[s]
		case seqML:
			if s >= len(zstdMLBase) {
				return zstdErr("code out of range")
			}
			base, extra = zstdMLBase[s], zstdMLBits[s]
		default:
			if s > 31 {
				return zstdErr("code out of range")
			}
			base, extra = 1<<s, uint8(s)
		}
		t[u] = seqEntry{base: base, extra: extra, nb: e.nb, next: e.base}
	}
	return nil
}

// seqVals is a decoded sequence.
type seqVals struct {
	llen, mlen, off uint32
}

// execute decodes nseq sequences from data and writes the block's
// output onto z.hist, the block starting at start; lits are its
// literals. nextBlock left room for a block and zstdSlack after start.
//
// The sequences are all decoded first, then carried out: apart, the
// copies of one do not wait on the bit reading of the next, and the
// processor overlaps the loads of matches far back.
func (z *zstdReader) execute(nseq int, lits, data []byte, start int) error {
	var br seqBits
	if err := br.init(data); err != nil {
		return err
	}
	if cap(z.seqs) < nseq {
		z.seqs = make([]seqVals, nseq)
	}
	seqs := z.seqs[:nseq]
	llT, ofT, mlT := &z.llSeq, &z.ofSeq, &z.mlSeq
	llS := br.get(uint8(z.ll.log))
	ofS := br.get(uint8(z.of.log))
	mlS := br.get(uint8(z.ml.log))
	rep0, rep1, rep2 := z.rep[0], z.rep[1], z.rep[2]
	for i := range seqs {
		if !br.advance() {
			br.refillSlow()
		}
		le, oe, me := llT[llS&511], ofT[ofS&511], mlT[mlS&511]
		ofv := oe.base + br.get(oe.extra)
		mlen := me.base + br.get(me.extra)
		// The literal length's bits and the states' take at most 42:
		// most sequences have them left from the first refill.
		if br.used > 64-42 && !br.advance() {
			br.refillSlow()
		}
		llen := le.base + br.get(le.extra)
		var off uint32
		if ofv > 3 {
			off = ofv - 3
			rep0, rep1, rep2 = off, rep0, rep1
		} else {
			if llen == 0 {
				ofv++
			}
			switch ofv {
			case 1:
				off = rep0
			case 2:
				off = rep1
				rep0, rep1 = off, rep0
			case 3:
				off = rep2
				rep0, rep1, rep2 = off, rep0, rep1
			default:
				off = rep0 - 1
				rep0, rep1, rep2 = off, rep0, rep1
			}
		}
		seqs[i] = seqVals{llen, mlen, off}
		if i < nseq-1 {
			llS = uint32(le.next) + br.get(le.nb)
			mlS = uint32(me.next) + br.get(me.nb)
			ofS = uint32(oe.next) + br.get(oe.nb)
		}
	}
	z.rep = [3]uint32{rep0, rep1, rep2}
	if br.left() != 0 {
		return zstdErr("sequences bitstream not consumed exactly")
	}
	n := len(z.hist)
	w := z.hist[:cap(z.hist)]
	limit := start + zstdMaxBlock
	for _, sq := range seqs {
		llen, mlen := int(sq.llen), int(sq.mlen)
		if llen > len(lits) {
			return zstdErr("sequence takes more literals than there are")
		}
		if n+llen+mlen > limit {
			return zstdErr("block decodes to more than %d bytes", zstdMaxBlock)
		}
		if llen <= 16 && len(lits) >= 16 {
			// Sixteen bytes, past the literals' end if need be (the
			// slack): what follows is written over.
			binary.LittleEndian.PutUint64(w[n:], binary.LittleEndian.Uint64(lits))
			binary.LittleEndian.PutUint64(w[n+8:], binary.LittleEndian.Uint64(lits[8:]))
		} else {
			copy(w[n:n+llen], lits[:llen])
		}
		lits = lits[llen:]
		n += llen
		// A match copies from the frame's output so far: hist holds
		// the last of it (at least the window), no more than the
		// frame decoded.
		off := sq.off
		if off == 0 || int64(off) > int64(n) {
			have := z.decoded + uint64(n-start)
			return zstdErr("match offset %d outside the %d bytes decoded", off, have)
		}
		o := int(off)
		switch {
		case o >= 8 && mlen <= 16:
			// Two words, each read from bytes written before it.
			binary.LittleEndian.PutUint64(w[n:], binary.LittleEndian.Uint64(w[n-o:]))
			binary.LittleEndian.PutUint64(w[n+8:], binary.LittleEndian.Uint64(w[n+8-o:]))
		case o >= mlen:
			copy(w[n:n+mlen], w[n-o:])
		case o >= 8:
			// Overlapping: a word at a time, each at least eight bytes
			// behind what it writes.
			for j := n; j < n+mlen; j += 8 {
				binary.LittleEndian.PutUint64(w[j:], binary.LittleEndian.Uint64(w[j-o:]))
			}
		default:
			// A pattern of o bytes repeats: write it byte by byte up to
			// a whole number of patterns of eight bytes or more, then
			// copy words from that far back, where the pattern is the
			// same.
			p := o * ((8 + o - 1) / o)
			j := n
			for ; j < n+min(p, mlen); j++ {
				w[j] = w[j-o]
			}
			for ; j < n+mlen; j += 8 {
				binary.LittleEndian.PutUint64(w[j:], binary.LittleEndian.Uint64(w[j-p:]))
			}
		}
		n += mlen
	}
	if n-start+len(lits) > zstdMaxBlock {
		return zstdErr("block decodes to more than %d bytes", zstdMaxBlock)
	}
	z.hist = append(z.hist[:n], lits...)
	return nil
}

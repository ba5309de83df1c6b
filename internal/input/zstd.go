package input

// A Zstandard decoder (RFC 8878), for zstd input. The library zevo read
// zstd with before builds a CRC-32C table at initialisation (for a Snappy
// converter it links in), which every command paid, zstd input or not:
// about a quarter of the instructions of a small translation. This one
// keeps no state at package level and builds its tables per stream.
//
// It decodes frames one block at a time, so a live stream's lines come
// out as each block arrives, checks the content checksum and size when
// the frame states them, and skips skippable frames. Dictionaries are not
// supported (no producer zevo reads uses them).

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math/bits"
)

const (
	zstdFrameMagic = 0xFD2FB528
	// zstdMaxBlock is the most a block holds, compressed or not.
	zstdMaxBlock = 128 << 10
	// zstdMaxWindow bounds the history a frame may ask to be kept, as
	// the library used before did by default.
	zstdMaxWindow = 1 << 29
	// zstdPresize: a frame stating its size up to this has its
	// history made that size at once.
	zstdPresize = 64 << 20
)

var errZstdUnexpectedEOF = io.ErrUnexpectedEOF

type zstdReader struct {
	r   *bufio.Reader
	err error

	inFrame  bool
	checksum bool
	hasSize  bool
	size     uint64 // the frame's stated content size
	window   int
	decoded  uint64 // bytes of the frame decoded so far
	hash     xxh64

	// hist is the frame's output: the history that matches may copy
	// from, then the bytes not read yet (hist[out:]).
	hist []byte
	out  int

	rep                 [3]uint32
	huff                huffTable
	ll, of, ml          fseTable
	llSeq, ofSeq, mlSeq seqTable
	seqs                []seqVals
	block, lits         []byte
	weightsTable        fseTable
}

func newZstdReader(r io.Reader) *zstdReader {
	return &zstdReader{r: bufio.NewReader(r)}
}

func (z *zstdReader) Read(p []byte) (int, error) {
	for z.out == len(z.hist) {
		if z.err != nil {
			return 0, z.err
		}
		z.err = z.next()
	}
	n := copy(p, z.hist[z.out:])
	z.out += n
	return n, nil
}

func zstdErr(format string, a ...any) error {
	return fmt.Errorf("zstd: "+format, a...)
}

// readFull reads len(b) bytes of a frame begun: its end is an error.
func (z *zstdReader) readFull(b []byte) error {
	_, err := io.ReadFull(z.r, b)
	if err == io.EOF {
		err = errZstdUnexpectedEOF
	}
	return err
}

// next decodes the next block, or reads the next frame's header; io.EOF
// at the end of the last frame.
func (z *zstdReader) next() error {
	if z.inFrame {
		return z.nextBlock()
	}
	var m [4]byte
	n, err := io.ReadFull(z.r, m[:])
	if n == 0 && err == io.EOF {
		return io.EOF
	}
	if err == io.EOF {
		err = errZstdUnexpectedEOF
	}
	if err != nil {
		return err
	}
	magic := binary.LittleEndian.Uint32(m[:])
	if magic&0xFFFFFFF0 == 0x184D2A50 {
		// A skippable frame: its size, then that many bytes.
		if err := z.readFull(m[:]); err != nil {
			return err
		}
		size := int64(binary.LittleEndian.Uint32(m[:]))
		if n, err := io.CopyN(io.Discard, z.r, size); n < size {
			if err == io.EOF {
				err = errZstdUnexpectedEOF
			}
			return err
		}
		return nil
	}
	if magic != zstdFrameMagic {
		return zstdErr("not a zstd frame (magic number %#08x)", magic)
	}
	return z.frameHeader()
}

func (z *zstdReader) frameHeader() error {
	var h [14]byte
	if err := z.readFull(h[:1]); err != nil {
		return err
	}
	fhd := h[0]
	if fhd&0x08 != 0 {
		return zstdErr("reserved bit set in the frame header")
	}
	single := fhd&0x20 != 0
	sizeBytes := [4]int{0, 2, 4, 8}[fhd>>6]
	if single && sizeBytes == 0 {
		sizeBytes = 1
	}
	dictBytes := [4]int{0, 1, 2, 4}[fhd&3]
	windowBytes := 1
	if single {
		windowBytes = 0
	}
	b := h[:windowBytes+dictBytes+sizeBytes]
	if err := z.readFull(b); err != nil {
		return err
	}
	var window uint64
	if !single {
		exp, mant := uint(b[0]>>3), uint64(b[0]&7)
		base := uint64(1) << (10 + exp)
		window = base + base/8*mant
	}
	b = b[windowBytes:]
	var dict uint32
	switch dictBytes {
	case 1:
		dict = uint32(b[0])
	case 2:
		dict = uint32(binary.LittleEndian.Uint16(b))
	case 4:
		dict = binary.LittleEndian.Uint32(b)
	}
	if dict != 0 {
		return zstdErr("frame needs dictionary %d; dictionaries are not supported", dict)
	}
	b = b[dictBytes:]
	switch sizeBytes {
	case 1:
		z.size = uint64(b[0])
	case 2:
		z.size = uint64(binary.LittleEndian.Uint16(b)) + 256
	case 4:
		z.size = uint64(binary.LittleEndian.Uint32(b))
	case 8:
		z.size = binary.LittleEndian.Uint64(b)
	}
	z.hasSize = sizeBytes > 0
	if single {
		window = z.size
	}
	if window > zstdMaxWindow {
		return zstdErr("window of %d bytes is larger than the %d zevo keeps", window, zstdMaxWindow)
	}
	z.window = int(window)
	z.checksum = fhd&0x04 != 0
	z.hash.reset()
	z.inFrame = true
	z.decoded = 0
	z.hist, z.out = z.hist[:0], 0
	z.rep = [3]uint32{1, 4, 8}
	z.huff.ok, z.ll.ok, z.of.ok, z.ml.ok = false, false, false, false
	return nil
}

func (z *zstdReader) nextBlock() error {
	var h [4]byte
	if err := z.readFull(h[:3]); err != nil {
		return err
	}
	v := uint32(h[0]) | uint32(h[1])<<8 | uint32(h[2])<<16
	last, typ, size := v&1 != 0, (v>>1)&3, int(v>>3)
	if size > zstdMaxBlock {
		return zstdErr("block of %d bytes, more than %d", size, zstdMaxBlock)
	}
	// Everything decoded has been read: history past the window goes.
	// hist then never holds more than the window, up to half as much
	// again (at least a MiB, so that small windows are not copied at
	// every block; 4 MiB cost 16 MB of peak RSS in translate for
	// little speed), and a block; it grows to that as the frame needs,
	// four times as large at a time (the bytes are copied each time).
	keep := z.window
	slide := keep + max(keep/2, 1<<20)
	if len(z.hist) >= slide {
		n := copy(z.hist, z.hist[len(z.hist)-keep:])
		z.hist, z.out = z.hist[:n], n
	}
	if cap(z.hist)-len(z.hist) < zstdMaxBlock+zstdSlack {
		want := max(4*cap(z.hist), len(z.hist)+zstdMaxBlock+zstdSlack)
		if z.hasSize && z.size <= zstdPresize {
			// Room for all the frame says it holds, at once rather than
			// copied as it grows; not more than it could need anyway,
			// and not much even if the frame lies.
			want = max(want, int(z.size)+zstdMaxBlock+zstdSlack)
		}
		want = min(want, slide+zstdMaxBlock+zstdSlack)
		// make, not append: memory fresh from the system is not
		// cleared, so pages are touched only as they are written.
		nh := make([]byte, len(z.hist), want)
		copy(nh, z.hist)
		z.hist = nh
	}
	start := len(z.hist)
	switch typ {
	case 0: // raw
		z.hist = z.hist[:start+size]
		if err := z.readFull(z.hist[start:]); err != nil {
			return err
		}
	case 1: // one byte, repeated
		if err := z.readFull(h[:1]); err != nil {
			return err
		}
		z.hist = z.hist[:start+size]
		for i := start; i < len(z.hist); i++ {
			z.hist[i] = h[0]
		}
	case 2:
		z.block = grow(z.block[:0], size)
		if err := z.readFull(z.block); err != nil {
			return err
		}
		if err := z.compressed(z.block); err != nil {
			z.hist = z.hist[:start]
			return err
		}
	default:
		return zstdErr("reserved block type")
	}
	z.decoded += uint64(len(z.hist) - start)
	if z.checksum {
		z.hash.write(z.hist[start:])
	}
	if !last {
		return nil
	}
	z.inFrame = false
	if z.hasSize && z.decoded != z.size {
		return zstdErr("frame holds %d bytes, its header says %d", z.decoded, z.size)
	}
	if z.checksum {
		if err := z.readFull(h[:]); err != nil {
			return err
		}
		if binary.LittleEndian.Uint32(h[:]) != uint32(z.hash.sum()) {
			return zstdErr("checksum mismatch")
		}
	}
	return nil
}

// grow returns b with n more bytes, whatever they hold.
func grow(b []byte, n int) []byte {
	if cap(b)-len(b) < n {
		nb := make([]byte, len(b), 2*cap(b)+n)
		copy(nb, b)
		b = nb
	}
	return b[:len(b)+n]
}

// compressed decodes a compressed block onto z.hist.
func (z *zstdReader) compressed(data []byte) error {
	lits, rest, err := z.literals(data)
	if err != nil {
		return err
	}
	return z.sequences(lits, rest, len(z.hist))
}

func (z *zstdReader) literals(data []byte) (lits, rest []byte, err error) {
	if len(data) == 0 {
		return nil, nil, zstdErr("empty compressed block")
	}
	b0 := data[0]
	typ, format := b0&3, (b0>>2)&3
	if typ < 2 { // raw or one byte repeated
		var size, hl int
		switch format {
		case 0, 2:
			size, hl = int(b0>>3), 1
		case 1:
			if len(data) < 2 {
				return nil, nil, zstdErr("literals header cut short")
			}
			size, hl = int(b0>>4)|int(data[1])<<4, 2
		case 3:
			if len(data) < 3 {
				return nil, nil, zstdErr("literals header cut short")
			}
			size, hl = int(b0>>4)|int(data[1])<<4|int(data[2])<<12, 3
		}
		if size > zstdMaxBlock {
			return nil, nil, zstdErr("%d literals, more than a block", size)
		}
		if typ == 0 {
			if len(data) < hl+size {
				return nil, nil, zstdErr("literals cut short")
			}
			return data[hl : hl+size], data[hl+size:], nil
		}
		if len(data) < hl+1 {
			return nil, nil, zstdErr("literals cut short")
		}
		z.lits = grow(z.lits[:0], size)
		for i := range z.lits {
			z.lits[i] = data[hl]
		}
		return z.lits, data[hl+1:], nil
	}
	var regen, comp, hl int
	streams := 4
	switch format {
	case 0, 1:
		if format == 0 {
			streams = 1
		}
		if len(data) < 3 {
			return nil, nil, zstdErr("literals header cut short")
		}
		v := uint32(data[0]) | uint32(data[1])<<8 | uint32(data[2])<<16
		regen, comp, hl = int(v>>4)&0x3ff, int(v>>14)&0x3ff, 3
	case 2:
		if len(data) < 4 {
			return nil, nil, zstdErr("literals header cut short")
		}
		v := binary.LittleEndian.Uint32(data)
		regen, comp, hl = int(v>>4)&0x3fff, int(v>>18)&0x3fff, 4
	case 3:
		if len(data) < 5 {
			return nil, nil, zstdErr("literals header cut short")
		}
		v := binary.LittleEndian.Uint32(data)
		regen, comp, hl = int(v>>4)&0x3ffff, int(v>>22)|int(data[4])<<10, 5
	}
	if regen > zstdMaxBlock {
		return nil, nil, zstdErr("%d literals, more than a block", regen)
	}
	if len(data) < hl+comp {
		return nil, nil, zstdErr("literals cut short")
	}
	src, rest := data[hl:hl+comp], data[hl+comp:]
	if typ == 2 {
		n, err := z.huff.read(src, &z.weightsTable)
		if err != nil {
			return nil, nil, err
		}
		src = src[n:]
	} else if !z.huff.ok {
		return nil, nil, zstdErr("literals reuse a Huffman table no block gave")
	}
	z.lits = grow(z.lits[:0], regen)
	if streams == 1 {
		if err := z.huff.decode(z.lits, src); err != nil {
			return nil, nil, err
		}
		return z.lits, rest, nil
	}
	if len(src) < 6 {
		return nil, nil, zstdErr("literals jump table cut short")
	}
	s1, s2, s3 := int(binary.LittleEndian.Uint16(src)), int(binary.LittleEndian.Uint16(src[2:])), int(binary.LittleEndian.Uint16(src[4:]))
	src = src[6:]
	if s1+s2+s3 > len(src) {
		return nil, nil, zstdErr("literals streams longer than their block")
	}
	seg := (regen + 3) / 4
	if 3*seg > regen {
		return nil, nil, zstdErr("too few literals for four streams")
	}
	ins := [4][]byte{src[:s1], src[s1 : s1+s2], src[s1+s2 : s1+s2+s3], src[s1+s2+s3:]}
	for i, in := range ins {
		end := min((i+1)*seg, regen)
		if err := z.huff.decode(z.lits[i*seg:end], in); err != nil {
			return nil, nil, err
		}
	}
	return z.lits, rest, nil
}

// Literal length and match length codes: baseline and extra bits.
var (
	zstdLLBase = [36]uint32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
		16, 18, 20, 22, 24, 28, 32, 40, 48, 64, 128, 256, 512, 1024, 2048, 4096,
		8192, 16384, 32768, 65536}
	zstdLLBits = [36]uint8{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	zstdMLBase = [53]uint32{3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18,
		19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34,
		35, 37, 39, 41, 43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051,
		4099, 8195, 16387, 32771, 65539}
	zstdMLBits = [53]uint8{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	// The predefined distributions, when a block names no table.
	zstdLLDefault = []int16{4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1,
		2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1}
	zstdMLDefault = []int16{1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1}
	zstdOFDefault = []int16{1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1}
)

// sequences decodes the sequences section and writes the block's output:
// literals and matches, onto z.hist (the block starts at start).
func (z *zstdReader) sequences(lits, data []byte, start int) error {
	if len(data) == 0 {
		return zstdErr("sequences header missing")
	}
	var nseq int
	switch b0 := int(data[0]); {
	case b0 == 0:
		if len(data) != 1 {
			return zstdErr("bytes after a block with no sequences")
		}
		z.hist = append(z.hist, lits...)
		return nil
	case b0 < 128:
		nseq, data = b0, data[1:]
	case b0 < 255:
		if len(data) < 2 {
			return zstdErr("sequences header cut short")
		}
		nseq, data = (b0-128)<<8+int(data[1]), data[2:]
	default:
		if len(data) < 3 {
			return zstdErr("sequences header cut short")
		}
		nseq, data = int(data[1])+int(data[2])<<8+0x7F00, data[3:]
	}
	if len(data) == 0 {
		return zstdErr("sequences header cut short")
	}
	modes := data[0]
	data = data[1:]
	if modes&3 != 0 {
		return zstdErr("reserved bits set in the sequences header")
	}
	for _, t := range []struct {
		tab     *fseTable
		seq     *seqTable
		kind    int
		mode    byte
		def     []int16
		defLog  int
		maxCode int
		maxLog  int
	}{
		{&z.ll, &z.llSeq, seqLL, modes >> 6, zstdLLDefault, 6, 35, 9},
		{&z.of, &z.ofSeq, seqOF, (modes >> 4) & 3, zstdOFDefault, 5, 31, 8},
		{&z.ml, &z.mlSeq, seqML, (modes >> 2) & 3, zstdMLDefault, 6, 52, 9},
	} {
		switch t.mode {
		case 0:
			if err := t.tab.build(t.def, t.defLog); err != nil {
				return err
			}
		case 1:
			if len(data) == 0 {
				return zstdErr("sequences table cut short")
			}
			if int(data[0]) > t.maxCode {
				return zstdErr("code %d out of range", data[0])
			}
			t.tab.rle(data[0])
			data = data[1:]
		case 2:
			n, err := t.tab.read(data, t.maxCode, t.maxLog)
			if err != nil {
				return err
			}
			data = data[n:]
		case 3:
			if !t.tab.ok {
				return zstdErr("sequences reuse a table no block gave")
			}
			continue
		}
		if err := t.seq.fill(t.tab, t.kind); err != nil {
			return err
		}
	}
	return z.execute(nseq, lits, data, start)
}

// backBits reads a bitstream from its end: the last byte's highest set
// bit marks where it starts, and values are read downwards from there.
type backBits struct {
	b   []byte
	pos int // bits [0, pos) are unread; below 0 the stream reads as zeros
	// fast: bits from p up (0 <= p < fast) are read as one word
	fast uint
}

func (r *backBits) init(b []byte) error {
	if len(b) == 0 || b[len(b)-1] == 0 {
		return zstdErr("bitstream without its end mark")
	}
	r.b = b
	r.pos = (len(b)-1)*8 + bits.Len8(b[len(b)-1]) - 1
	r.fast = uint(max(len(b)-7, 0)) * 8
	return nil
}

// peek returns the n (at most 32) bits below pos, the highest first.
func (r *backBits) peek(n uint8) uint32 {
	p := r.pos - int(n)
	if uint(p) >= r.fast {
		return r.edge(p, n)
	}
	return uint32(binary.LittleEndian.Uint64(r.b[p>>3:]) >> (p & 7) & (1<<n - 1))
}

func (r *backBits) read(n uint8) uint32 {
	p := r.pos - int(n)
	r.pos = p
	if uint(p) >= r.fast {
		return r.edge(p, n)
	}
	return uint32(binary.LittleEndian.Uint64(r.b[p>>3:]) >> (p & 7) & (1<<n - 1))
}

// edge is peek near either end of the stream: the n bits from bit p up.
func (r *backBits) edge(p int, n uint8) uint32 {
	if p < 0 {
		hi := p + int(n)
		if hi <= 0 {
			return 0
		}
		return uint32(r.load(0)&(1<<hi-1)) << uint(-p)
	}
	return uint32(r.load(p) & (1<<n - 1))
}

// load returns the bits from bit p up, at least 56 of them (zeros past
// the end).
func (r *backBits) load(p int) uint64 {
	i := p >> 3
	var v uint64
	if i+8 <= len(r.b) {
		v = binary.LittleEndian.Uint64(r.b[i:])
	} else {
		for k := len(r.b) - 1; k >= i; k-- {
			v = v<<8 | uint64(r.b[k])
		}
	}
	return v >> (p & 7)
}

type fseEntry struct {
	sym  uint8
	nb   uint8
	base uint16
}

type fseTable struct {
	ok     bool
	log    int
	tab    []fseEntry
	norm   [256]int16
	follow [256]uint16 // build's next state of each symbol
}

func (t *fseTable) init(br *backBits) uint32 { return br.read(uint8(t.log)) }

func (t *fseTable) next(state uint32, br *backBits) uint32 {
	e := t.tab[state]
	return uint32(e.base) + br.read(e.nb)
}

func (t *fseTable) rle(sym byte) {
	t.tab = append(t.tab[:0], fseEntry{sym: sym})
	t.log, t.ok = 0, true
}

// read reads a table description (RFC 8878, 4.1.1) at the start of b and
// builds the table; it returns the bytes it took.
func (t *fseTable) read(b []byte, maxSym, maxLog int) (int, error) {
	pos := 0 // in bits
	get := func(n int) int {
		i := pos >> 3
		var v uint32
		for k := min(len(b), i+4) - 1; k >= i; k-- {
			v = v<<8 | uint32(b[k])
		}
		return int(v>>(pos&7)) & (1<<n - 1)
	}
	log := get(4) + 5
	pos += 4
	if log > maxLog {
		return 0, zstdErr("table accuracy %d, more than %d", log, maxLog)
	}
	remaining := 1<<log + 1
	threshold := 1 << log
	nb := log + 1
	sym := 0
	for remaining > 1 && sym <= maxSym {
		limit := 2*threshold - 1 - remaining
		v := get(nb)
		var count int
		if v&(threshold-1) < limit {
			count = v & (threshold - 1)
			pos += nb - 1
		} else {
			count = v & (2*threshold - 1)
			if count >= threshold {
				count -= limit
			}
			pos += nb
		}
		count--
		if count < 0 {
			remaining--
		} else {
			remaining -= count
		}
		if remaining < 1 {
			return 0, zstdErr("table probabilities add up to too much")
		}
		t.norm[sym] = int16(count)
		sym++
		if count == 0 {
			for {
				r := get(2)
				pos += 2
				for range r {
					if sym > maxSym {
						return 0, zstdErr("table has too many symbols")
					}
					t.norm[sym] = 0
					sym++
				}
				if r != 3 {
					break
				}
			}
		}
		for remaining < threshold {
			nb--
			threshold >>= 1
		}
	}
	if remaining != 1 {
		return 0, zstdErr("table probabilities do not add up")
	}
	n := (pos + 7) >> 3
	if n > len(b) {
		return 0, zstdErr("table description cut short")
	}
	return n, t.build(t.norm[:sym], log)
}

// build builds the decoding table of a distribution (RFC 8878, 4.1.1).
func (t *fseTable) build(norm []int16, log int) error {
	if &norm[0] != &t.norm[0] {
		copy(t.norm[:], norm)
	}
	size := 1 << log
	if cap(t.tab) < size {
		t.tab = make([]fseEntry, size)
	}
	t.tab = t.tab[:size]
	high := size - 1
	for s, c := range norm {
		if c == -1 {
			t.tab[high].sym = uint8(s)
			high--
			t.follow[s] = 1
		} else {
			t.follow[s] = uint16(max(c, 0))
		}
	}
	step := size>>1 + size>>3 + 3
	mask := size - 1
	pos := 0
	for s, c := range norm {
		for range max(c, 0) {
			t.tab[pos].sym = uint8(s)
			pos = (pos + step) & mask
			for pos > high {
				pos = (pos + step) & mask
			}
		}
	}
	if pos != 0 {
		return zstdErr("table probabilities do not fill the table")
	}
	for u := range t.tab {
		s := t.tab[u].sym
		ns := t.follow[s]
		t.follow[s]++
		nb := log - (bits.Len16(ns) - 1)
		t.tab[u].nb = uint8(nb)
		t.tab[u].base = uint16(int(ns)<<nb - size)
	}
	t.log, t.ok = log, true
	return nil
}

type huffEntry struct {
	sym uint8
	nb  uint8
}

type huffTable struct {
	ok      bool
	maxBits uint8
	tab     []huffEntry
}

// read reads a Huffman tree description (RFC 8878, 4.2.1) at the start
// of b and builds the table; it returns the bytes it took.
func (h *huffTable) read(b []byte, wt *fseTable) (int, error) {
	if len(b) == 0 {
		return 0, zstdErr("Huffman tree description missing")
	}
	var weights [256]uint8
	nw := 0
	used := 0
	if hb := int(b[0]); hb >= 128 {
		nw = hb - 127
		used = 1 + (nw+1)/2
		if len(b) < used {
			return 0, zstdErr("Huffman weights cut short")
		}
		for i := range nw {
			w := b[1+i/2]
			if i%2 == 0 {
				w >>= 4
			}
			weights[i] = w & 15
		}
	} else {
		used = 1 + hb
		if len(b) < used {
			return 0, zstdErr("Huffman weights cut short")
		}
		src := b[1:used]
		n, err := wt.read(src, 255, 6)
		if err != nil {
			return 0, err
		}
		var br backBits
		if err := br.init(src[n:]); err != nil {
			return 0, err
		}
		// Two states take turns on one stream, until it is used up.
		s := [2]uint32{wt.init(&br), wt.init(&br)}
		for i := 0; ; i ^= 1 {
			if nw >= 255 {
				return 0, zstdErr("too many Huffman weights")
			}
			weights[nw] = wt.tab[s[i]].sym
			nw++
			s[i] = wt.next(s[i], &br)
			if br.pos < 0 {
				if nw >= 255 {
					return 0, zstdErr("too many Huffman weights")
				}
				weights[nw] = wt.tab[s[i^1]].sym
				nw++
				break
			}
		}
	}
	sum := 0
	for _, w := range weights[:nw] {
		if w > 11 {
			return 0, zstdErr("Huffman weight %d, more than 11", w)
		}
		if w > 0 {
			sum += 1 << (w - 1)
		}
	}
	if sum == 0 {
		return 0, zstdErr("Huffman weights all zero")
	}
	maxBits := bits.Len(uint(sum))
	left := 1<<maxBits - sum
	if left&(left-1) != 0 || maxBits > 11 {
		return 0, zstdErr("Huffman weights do not make a tree")
	}
	weights[nw] = uint8(bits.Len(uint(left)))
	nw++
	size := 1 << maxBits
	if cap(h.tab) < size {
		h.tab = make([]huffEntry, size)
	}
	h.tab = h.tab[:size]
	pos := 0
	for w := 1; w <= maxBits; w++ {
		for s, sw := range weights[:nw] {
			if int(sw) != w {
				continue
			}
			e := huffEntry{sym: uint8(s), nb: uint8(maxBits + 1 - w)}
			for i := range 1 << (w - 1) {
				h.tab[pos+i] = e
			}
			pos += 1 << (w - 1)
		}
	}
	h.maxBits, h.ok = uint8(maxBits), true
	return used, nil
}

// decode fills out from one Huffman-coded stream, which it must use up.
func (h *huffTable) decode(out, in []byte) error {
	var br backBits
	if err := br.init(in); err != nil {
		return err
	}
	for i := range out {
		e := h.tab[br.peek(h.maxBits)]
		out[i] = e.sym
		br.pos -= int(e.nb)
	}
	if br.pos != 0 {
		return zstdErr("Huffman stream not consumed exactly")
	}
	return nil
}

// xxh64 is XXH64 with seed 0, the frame's content checksum.
type xxh64 struct {
	v     [4]uint64
	buf   [32]byte
	n     int
	total uint64
}

const (
	xxPrime1 uint64 = 11400714785074694791
	xxPrime2 uint64 = 14029467366897019727
	xxPrime3 uint64 = 1609587929392839161
	xxPrime4 uint64 = 9650029242287828579
	xxPrime5 uint64 = 2870177450012600261
)

func xxRound(acc, in uint64) uint64 {
	return bits.RotateLeft64(acc+in*xxPrime2, 31) * xxPrime1
}

func xxMerge(h, v uint64) uint64 {
	return (h^xxRound(0, v))*xxPrime1 + xxPrime4
}

func (x *xxh64) reset() {
	p1, p2 := xxPrime1, xxPrime2 // variables: the sums wrap around
	*x = xxh64{v: [4]uint64{p1 + p2, p2, 0, -p1}}
}

func (x *xxh64) stripes(b []byte) {
	for ; len(b) >= 32; b = b[32:] {
		x.v[0] = xxRound(x.v[0], binary.LittleEndian.Uint64(b))
		x.v[1] = xxRound(x.v[1], binary.LittleEndian.Uint64(b[8:]))
		x.v[2] = xxRound(x.v[2], binary.LittleEndian.Uint64(b[16:]))
		x.v[3] = xxRound(x.v[3], binary.LittleEndian.Uint64(b[24:]))
	}
}

func (x *xxh64) write(b []byte) {
	x.total += uint64(len(b))
	if x.n > 0 {
		c := copy(x.buf[x.n:], b)
		x.n += c
		b = b[c:]
		if x.n < 32 {
			return
		}
		x.stripes(x.buf[:])
		x.n = 0
	}
	whole := len(b) &^ 31
	x.stripes(b[:whole])
	x.n = copy(x.buf[:], b[whole:])
}

func (x *xxh64) sum() uint64 {
	var h uint64
	if x.total >= 32 {
		v := x.v
		h = bits.RotateLeft64(v[0], 1) + bits.RotateLeft64(v[1], 7) + bits.RotateLeft64(v[2], 12) + bits.RotateLeft64(v[3], 18)
		for _, vi := range v {
			h = xxMerge(h, vi)
		}
	} else {
		h = xxPrime5
	}
	h += x.total
	b := x.buf[:x.n]
	for ; len(b) >= 8; b = b[8:] {
		h ^= xxRound(0, binary.LittleEndian.Uint64(b))
		h = bits.RotateLeft64(h, 27)*xxPrime1 + xxPrime4
	}
	if len(b) >= 4 {
		h ^= uint64(binary.LittleEndian.Uint32(b)) * xxPrime1
		h = bits.RotateLeft64(h, 23)*xxPrime2 + xxPrime3
		b = b[4:]
	}
	for _, c := range b {
		h ^= uint64(c) * xxPrime5
		h = bits.RotateLeft64(h, 11) * xxPrime1
	}
	h ^= h >> 33
	h *= xxPrime2
	h ^= h >> 29
	h *= xxPrime3
	h ^= h >> 32
	return h
}

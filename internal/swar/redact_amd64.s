#include "textflag.h"

// BCAST fills the 16 bytes of X with the byte repeated in the 8 of c.
#define BCAST(c, X) MOVQ $c, DX; MOVQ DX, X; PUNPCKLQDQ X, X

// Bytes the loop compares with from memory, for want of registers.
DATA redactBytes<>+0(SB)/8, $0x6262626262626262  // b
DATA redactBytes<>+8(SB)/8, $0x6262626262626262
DATA redactBytes<>+16(SB)/8, $0x6565656565656565 // e
DATA redactBytes<>+24(SB)/8, $0x6565656565656565
DATA redactBytes<>+32(SB)/8, $0x3333333333333333 // 3
DATA redactBytes<>+40(SB)/8, $0x3333333333333333
DATA redactBytes<>+48(SB)/8, $0x3232323232323232 // 2
DATA redactBytes<>+56(SB)/8, $0x3232323232323232
DATA redactBytes<>+64(SB)/8, $0x3636363636363636 // 6
DATA redactBytes<>+72(SB)/8, $0x3636363636363636
GLOBL redactBytes<>(SB), RODATA|NOPTR, $80

// func redactBlocks(b []byte) (i int, hit bool)
//
// Positions 0, 1, 2 … of b sixteen at a time, while the block's loads
// (from i to i+5) stay inside b. X0, X1, X2 hold the bytes at p, p+1 and
// p+2 of the block's positions p; a position is a hit when they spell
// "sk-", "api" or "bea" (the last two in any case), or when it starts
// "\u" (or "|u", "\U", "|U": the letters are compared with their 0x20 bit
// set) and is not Go's \u003c, \u003e or \u0026 (the byte at p+4 is not
// '3', and not '2' before '6' at p+5). Every hit is checked again in Go.
TEXT ·redactBlocks(SB), NOSPLIT, $0-33
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), BX
	XORQ AX, AX
	SUBQ $21, BX // the last block's start
	JL   none
	BCAST(0x7373737373737373, X4)  // s
	BCAST(0x6b6b6b6b6b6b6b6b, X5)  // k
	BCAST(0x2d2d2d2d2d2d2d2d, X6)  // -
	BCAST(0x7c7c7c7c7c7c7c7c, X7)  // backslash, with the 0x20 bit set
	BCAST(0x7575757575757575, X8)  // u
	BCAST(0x2020202020202020, X9)  // the bit that makes a letter small
	BCAST(0x6161616161616161, X10) // a
	BCAST(0x7070707070707070, X11) // p
	BCAST(0x6969696969696969, X12) // i

loop:
	MOVOU (SI)(AX*1), X0
	MOVOU 1(SI)(AX*1), X1
	MOVOU 2(SI)(AX*1), X2

	// sk-
	MOVO    X4, X3
	PCMPEQB X0, X3
	MOVO    X5, X13
	PCMPEQB X1, X13
	PAND    X13, X3
	MOVO    X6, X13
	PCMPEQB X2, X13
	PAND    X13, X3

	// api and bea, in any case
	POR     X9, X0
	POR     X9, X1
	POR     X9, X2
	MOVO    X10, X13
	PCMPEQB X0, X13
	MOVO    X11, X14
	PCMPEQB X1, X14
	PAND    X14, X13
	MOVO    X12, X14
	PCMPEQB X2, X14
	PAND    X14, X13
	POR     X13, X3
	MOVOU   redactBytes<>+0(SB), X13
	PCMPEQB X0, X13
	MOVOU   redactBytes<>+16(SB), X14
	PCMPEQB X1, X14
	PAND    X14, X13
	MOVO    X10, X14
	PCMPEQB X2, X14
	PAND    X14, X13
	POR     X13, X3

	// \u, but not \u003c, \u003e or \u0026
	MOVO    X7, X13
	PCMPEQB X0, X13
	MOVO    X8, X14
	PCMPEQB X1, X14
	PAND    X14, X13                  // X13: \u
	MOVOU   4(SI)(AX*1), X2
	MOVOU   redactBytes<>+32(SB), X14
	PCMPEQB X2, X14
	PANDN   X13, X14                  // X14: \u, not 3 at p+4
	MOVOU   5(SI)(AX*1), X0
	MOVOU   redactBytes<>+64(SB), X1
	PCMPEQB X0, X1
	MOVOU   redactBytes<>+48(SB), X0
	PCMPEQB X2, X0
	PAND    X1, X0                    // X0: 2 at p+4, 6 at p+5
	PANDN   X14, X0                   // X0: \u, not 3, not 26
	POR     X0, X3

	PMOVMSKB X3, DX
	TESTL    DX, DX
	JNZ      found
	ADDQ     $16, AX
	CMPQ     AX, BX
	JLE      loop

none:
	MOVQ AX, i+24(FP)
	MOVB $0, hit+32(FP)
	RET

found:
	BSFL DX, DX
	ADDQ DX, AX
	MOVQ AX, i+24(FP)
	MOVB $1, hit+32(FP)
	RET

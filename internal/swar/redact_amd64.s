#include "textflag.h"

// BCAST fills the 16 bytes of X with the byte that fills the 8 of c.
#define BCAST(c, X) MOVQ $c, DX; MOVQ DX, X; PUNPCKLQDQ X, X

// func redactBlocks(b []byte) (i int, hit bool)
//
// Positions 0, 1, 2 … of b sixteen at a time, while the block's three
// loads (from i, i+1 and i+2) stay inside b. X0, X1, X2 hold the bytes at
// p, p+1 and p+2 of the block's positions p; a position is a hit when
// they spell "sk-", "api" or "bea" (the last two in any case) or its
// first two are "\u".
TEXT ·redactBlocks(SB), NOSPLIT, $0-33
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), BX
	XORQ AX, AX
	SUBQ $18, BX // the last block's start
	JL   none
	BCAST(0x7373737373737373, X4)  // s
	BCAST(0x6b6b6b6b6b6b6b6b, X5)  // k
	BCAST(0x2d2d2d2d2d2d2d2d, X6)  // -
	BCAST(0x5c5c5c5c5c5c5c5c, X7)  // backslash
	BCAST(0x7575757575757575, X8)  // u
	BCAST(0x2020202020202020, X9)  // the bit that makes a letter small
	BCAST(0x6161616161616161, X10) // a
	BCAST(0x7070707070707070, X11) // p
	BCAST(0x6969696969696969, X12) // i
	MOVQ $0x6262626262626262, R8   // b
	MOVQ $0x6565656565656565, R9   // e

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

	// \u
	MOVO    X7, X13
	PCMPEQB X0, X13
	MOVO    X8, X14
	PCMPEQB X1, X14
	PAND    X14, X13
	POR     X13, X3

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
	MOVQ    R8, X13
	PUNPCKLQDQ X13, X13
	PCMPEQB X0, X13
	MOVQ    R9, X14
	PUNPCKLQDQ X14, X14
	PCMPEQB X1, X14
	PAND    X14, X13
	MOVO    X10, X14
	PCMPEQB X2, X14
	PAND    X14, X13
	POR     X13, X3

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

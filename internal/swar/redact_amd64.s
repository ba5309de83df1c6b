//go:build !purego

#include "textflag.h"
#include "blocks_amd64.h"

// Bytes the loop compares with from memory, for want of registers.
DATA redactBytes<>+0(SB)/8, $0x6262626262626262  // b
DATA redactBytes<>+8(SB)/8, $0x6262626262626262
DATA redactBytes<>+16(SB)/8, $0x6565656565656565 // e
DATA redactBytes<>+24(SB)/8, $0x6565656565656565
DATA redactBytes<>+32(SB)/8, $0x3030303030303030 // 0
DATA redactBytes<>+40(SB)/8, $0x3030303030303030
DATA redactBytes<>+48(SB)/8, $0xfcfcfcfcfcfcfcfc // all bits but the last two
DATA redactBytes<>+56(SB)/8, $0xfcfcfcfcfcfcfcfc
DATA redactBytes<>+64(SB)/8, $0x3434343434343434 // 4
DATA redactBytes<>+72(SB)/8, $0x3434343434343434
DATA redactBytes<>+80(SB)/8, $0x3232323232323232 // 2
DATA redactBytes<>+88(SB)/8, $0x3232323232323232
DATA redactBytes<>+96(SB)/8, $0x6464646464646464 // d
DATA redactBytes<>+104(SB)/8, $0x6464646464646464
GLOBL redactBytes<>(SB), RODATA|NOPTR, $112

// func redactBlocks(b []byte) (i int, hit bool)
//
// Positions 0, 1, 2 … of b sixteen at a time, while the block's loads
// (from i to i+5) stay inside b. X0, X1, X2 hold the bytes at p, p+1 and
// p+2 of the block's positions p; a position is a hit when they spell
// "sk-", "api" or "bea" (the last two in any case), or an escape of a
// letter or '-', "\u00" then '4' to '7', or "2d" in any case. The
// backslash, the 'u' and the first '0' are compared with their 0x20 bit
// set, so "|u00", "\U00" and the like are hits too: every hit is checked
// again in Go.
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

	// \u00 then 4 to 7, or 2 then d or D
	MOVO    X7, X13
	PCMPEQB X0, X13
	MOVO    X8, X14
	PCMPEQB X1, X14
	PAND    X14, X13
	MOVOU   redactBytes<>+32(SB), X14
	PCMPEQB X2, X14
	PAND    X14, X13                  // X13: \u0
	MOVOU   3(SI)(AX*1), X0
	MOVOU   redactBytes<>+32(SB), X14
	PCMPEQB X0, X14
	PAND    X14, X13                  // X13: \u00
	MOVOU   4(SI)(AX*1), X2
	MOVOU   redactBytes<>+48(SB), X0
	PAND    X2, X0
	MOVOU   redactBytes<>+64(SB), X14
	PCMPEQB X0, X14                   // X14: 4 to 7 at p+4
	MOVOU   5(SI)(AX*1), X0
	POR     X9, X0
	MOVOU   redactBytes<>+96(SB), X1
	PCMPEQB X0, X1                    // X1: d or D at p+5
	MOVOU   redactBytes<>+80(SB), X0
	PCMPEQB X2, X0
	PAND    X1, X0                    // X0: 2d or 2D at p+4
	POR     X0, X14
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

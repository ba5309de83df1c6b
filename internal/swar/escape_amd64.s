//go:build !purego

#include "textflag.h"
#include "blocks_amd64.h"

// The escape-aware scanners' blocks (escape.go). Every '\\' a block holds
// begins an escape, as long as no stop came before it in the string: a
// "\\\\" stops at its first byte. The byte after such a '\\' is not a stop
// of its own ('"' there is escaped); CX carries the last '\\' of a block
// into the next, whose first byte it escapes. A block without '\\' (and
// no '\\' carried into it) needs only its own bytes; one with them is
// loaded again one byte further on (X3), to see which escape each begins,
// which is why a block needs the 17th byte after it.
//
// In every function: SI is b, BX the last start of a block, AX the block,
// X0 its bytes, X4 sixteen '"', X5 sixteen '\\'. OWN flags in X1 the bytes
// of the function's own class; ESC flags in X14, from X3 and the '\\' in
// X13, the '\\' whose escape is a stop. DX ends with the block's stops, R8
// with its '\\'.

// c<> holds sixteen copies of each byte the scanners compare with, at
// the offsets named below: loaded when needed, not made in registers.
#define QUOTE 0
#define BSLASH 16
#define SPACE 32
#define N 48
#define T 64
#define R 80
#define B 96
#define F 112
#define U 128
#define SLASH 144
#define DEL 160
#define LT 176
#define GT 192
#define AMP 208
#define COLON 224
#define BACKTICK 240
#define LETG 256
#define LETD 272
#define SEVEN 288
DATA c<>+0(SB)/8, $0x2222222222222222
DATA c<>+8(SB)/8, $0x2222222222222222
DATA c<>+16(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA c<>+24(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA c<>+32(SB)/8, $0x2020202020202020
DATA c<>+40(SB)/8, $0x2020202020202020
DATA c<>+48(SB)/8, $0x6e6e6e6e6e6e6e6e
DATA c<>+56(SB)/8, $0x6e6e6e6e6e6e6e6e
DATA c<>+64(SB)/8, $0x7474747474747474
DATA c<>+72(SB)/8, $0x7474747474747474
DATA c<>+80(SB)/8, $0x7272727272727272
DATA c<>+88(SB)/8, $0x7272727272727272
DATA c<>+96(SB)/8, $0x6262626262626262
DATA c<>+104(SB)/8, $0x6262626262626262
DATA c<>+112(SB)/8, $0x6666666666666666
DATA c<>+120(SB)/8, $0x6666666666666666
DATA c<>+128(SB)/8, $0x7575757575757575
DATA c<>+136(SB)/8, $0x7575757575757575
DATA c<>+144(SB)/8, $0x2f2f2f2f2f2f2f2f
DATA c<>+152(SB)/8, $0x2f2f2f2f2f2f2f2f
DATA c<>+160(SB)/8, $0x7f7f7f7f7f7f7f7f
DATA c<>+168(SB)/8, $0x7f7f7f7f7f7f7f7f
DATA c<>+176(SB)/8, $0x3c3c3c3c3c3c3c3c
DATA c<>+184(SB)/8, $0x3c3c3c3c3c3c3c3c
DATA c<>+192(SB)/8, $0x3e3e3e3e3e3e3e3e
DATA c<>+200(SB)/8, $0x3e3e3e3e3e3e3e3e
DATA c<>+208(SB)/8, $0x2626262626262626
DATA c<>+216(SB)/8, $0x2626262626262626
DATA c<>+224(SB)/8, $0x3a3a3a3a3a3a3a3a
DATA c<>+232(SB)/8, $0x3a3a3a3a3a3a3a3a
DATA c<>+240(SB)/8, $0x6060606060606060
DATA c<>+248(SB)/8, $0x6060606060606060
DATA c<>+256(SB)/8, $0x6767676767676767
DATA c<>+264(SB)/8, $0x6767676767676767
DATA c<>+272(SB)/8, $0x6464646464646464
DATA c<>+280(SB)/8, $0x6464646464646464
DATA c<>+288(SB)/8, $0x3737373737373737
DATA c<>+296(SB)/8, $0x3737373737373737
GLOBL c<>(SB), RODATA|NOPTR, $304

// LOADC loads the sixteen copies of a byte at offset C of c<> into X.
#define LOADC(C, X) MOVOU c<>+C(SB), X

// START sets up a function whose blocks need N bytes from their start.
#define START(N) \
	MOVQ b_base+0(FP), SI; \
	MOVQ b_len+8(FP), BX; \
	MOVQ i+24(FP), AX; \
	SUBQ $N, BX; \
	XORL CX, CX; \
	LOADC(QUOTE, X4); \
	LOADC(BSLASH, X5)

// EQ flags into X1 the bytes of X0 equal to those of register C.
#define EQ(C) MOVO C, X15; PCMPEQB X0, X15; POR X15, X1

// NEXTIS flags into X14 the bytes after that are the byte at offset C.
#define NEXTIS(C) LOADC(C, X15); PCMPEQB X3, X15; POR X15, X14

// BLOCK leaves the stops of the block at AX in DX, jumping to found when
// there is one, and goes on to the next block while one remains. MORE
// runs with the stops of the '\\' in R9 (as bits), before they are
// added to DX; before it moves on, AFTER runs with the block's '\\' in
// R8.
#define BLOCK(OWN, ESC, MORE, AFTER) \
loop: \
	MOVOU (SI)(AX*1), X0; \
	MOVO  X5, X13; \
	PCMPEQB X0, X13; \
	OWN; \
	MOVO  X4, X2; \
	PCMPEQB X0, X2; \
	POR   X2, X1; \
	PMOVMSKB X13, R8; \
	PMOVMSKB X1, DX; \
	MOVL  R8, R10; \
	ORL   CX, R10; \
	JNZ   escapes; \
	TESTL DX, DX; \
	JNZ   found; \
	ADDQ  $16, AX; \
	CMPQ  AX, BX; \
	JLE   loop; \
	JMP   end; \
escapes: \
	MOVOU 1(SI)(AX*1), X3; \
	ESC; \
	PMOVMSKB X14, R9; \
	MORE; \
	MOVL  R8, R10; \
	SHLL  $1, R10; \
	ORL   CX, R10; \
	NOTL  R10; \
	ANDL  R10, DX; \
	ORL   R9, DX; \
	TESTL DX, DX; \
	JNZ   found; \
	AFTER; \
	MOVL  R8, CX; \
	SHRL  $15, CX; \
	ADDQ  $16, AX; \
	CMPQ  AX, BX; \
	JLE   loop

// func stringStopEscBlocks(b []byte, i int) (j int, found, esc, u bool)
// A control character, a byte >= 0x80, a '"' not escaped, or a '\\' but
// that of \", \n, \t, \r, \b, \f, or of a \uXXXX with four hex digits
// that is not a surrogate (D800 to DFFF). R11 gathers the '\\' passed
// over, DI those of \u. A \u is looked at up to its last byte, which is
// why a block here needs the 21st byte after it.
#define STRINGOWN MOVO X6, X1; PCMPGTB X0, X1 // below 0x20, or >= 0x80 (negative)
#define STRINGESC \
	MOVO X4, X14; \
	PCMPEQB X3, X14; \
	NEXTIS(N); \
	NEXTIS(T); \
	NEXTIS(R); \
	NEXTIS(B); \
	NEXTIS(F); \
	PANDN X13, X14 // a '\\' whose escape is none of those

// HEXBITS leaves in register H a bit for each byte of X that is a hex
// digit, and X lowered (OR 0x20) in L: digits are between '/' and ':',
// letters, lowered, between '`' and 'g' (signed compares: no byte >= 0x80
// is either).
#define HEXBITS(X, L, H) \
	MOVO X, X1; \
	LOADC(SLASH, X15); \
	PCMPGTB X15, X1; \
	LOADC(COLON, X2); \
	PCMPGTB X, X2; \
	PAND X2, X1; \
	MOVO X, L; \
	POR X6, L; \
	MOVO L, X14; \
	LOADC(BACKTICK, X15); \
	PCMPGTB X15, X14; \
	LOADC(LETG, X2); \
	PCMPGTB L, X2; \
	PAND X2, X14; \
	POR X14, X1; \
	PMOVMSKB X1, H

// STRINGMORE takes out of the stops in R9 the '\\' of each \uXXXX that
// has four hex digits and is not a surrogate, and leaves them in R12.
// Bit k of the masks below is byte k from the block, 0 to 20, from the
// block (X0) and the 16 bytes from its sixth (X7): R10 the hex digits,
// then the starts of four; R13 'd' or 'D'; R14 the bytes above '7', which
// a hex digit after a 'd' must not be. No '\\' or stop can be among the
// hex digits passed over, so nothing else changes.
#define STRINGMORE \
	LOADC(U, X15); \
	PCMPEQB X3, X15; \
	PMOVMSKB X15, R12; \
	ANDL R8, R12; \
	JZ   nou; \
	MOVOU 5(SI)(AX*1), X7; \
	HEXBITS(X0, X8, R10); \
	HEXBITS(X7, X9, R13); \
	SHLL $5, R13; \
	ORL  R13, R10; \
	MOVL R10, R13; \
	SHRL $1, R13; \
	ANDL R13, R10; \
	MOVL R10, R13; \
	SHRL $2, R13; \
	ANDL R13, R10; \
	LOADC(LETD, X15); \
	MOVO X15, X1; \
	PCMPEQB X8, X1; \
	PMOVMSKB X1, R13; \
	PCMPEQB X9, X15; \
	PMOVMSKB X15, R14; \
	SHLL $5, R14; \
	ORL  R14, R13; \
	LOADC(SEVEN, X15); \
	PCMPGTB X15, X8; \
	PMOVMSKB X8, R14; \
	SHRL $1, R14; \
	ANDL R13, R14; \
	NOTL R14; \
	ANDL R14, R10; \
	PCMPGTB X15, X9; \
	PMOVMSKB X9, R14; \
	SHLL $4, R14; \
	ANDL R13, R14; \
	NOTL R14; \
	ANDL R14, R10; \
	SHRL $2, R10; \
	ANDL R10, R12; \
	XORL R12, R9; \
nou:

#define STRINGAFTER ORL R8, R11; ORL R12, DI

// RETESC returns AX, found F and whether R11 holds a '\\' passed over,
// DI one of a \u.
#define RETESC(F) \
	MOVQ AX, j+32(FP); \
	MOVB F, found+40(FP); \
	TESTL R11, R11; \
	SETNE esc+41(FP); \
	TESTL DI, DI; \
	SETNE u+42(FP); \
	RET

TEXT ·stringStopEscBlocks(SB), NOSPLIT, $0-43
	START(21)
	XORL R11, R11
	XORL DI, DI
	XORL R12, R12 // a block without '\\' leaves it as it was: none at first
	LOADC(SPACE, X6)
	CMPQ AX, BX
	JG   end
	BLOCK(STRINGOWN, STRINGESC, STRINGMORE, STRINGAFTER)
end:
	ADDQ CX, AX
	RETESC($0)
found:
	BSFL DX, DX
	MOVL DX, CX
	MOVL $1, R10
	SHLL CX, R10
	DECL R10
	ANDL R10, R8 // the '\\' before the stop
	ORL  R8, R11
	ANDL R10, R12 // the same of \u (from an earlier block: in DI already)
	ORL  R12, DI
	ADDQ DX, AX
	RETESC($1)

// ENDSKIP is END, past an escape begun by the last byte looked at.
#define ENDSKIP \
end: \
	ADDQ CX, AX; \
	END

// RESTYLEESC flags into X14 the '\\' of \u, \/ and "\\\\".
#define RESTYLEESC \
	MOVO X5, X14; \
	PCMPEQB X3, X14; \
	NEXTIS(U); \
	NEXTIS(SLASH); \
	PAND X13, X14

// func skipPythonEscBlocks(b []byte, i int) (j int, found bool)
// A byte >= 0x7f, a '"' not escaped, or the '\\' of \u, \/ or "\\\\".
#define PYTHONOWN MOVO X0, X1; EQ(X8) // 0x7f, or the high bit of a byte >= 0x80

TEXT ·skipPythonEscBlocks(SB), NOSPLIT, $0-41
	START(17)
	LOADC(DEL, X8)
	CMPQ AX, BX
	JG   end
	BLOCK(PYTHONOWN, RESTYLEESC, NOP, NOP)
	ENDSKIP

// func skipGoEscBlocks(b []byte, i int) (j int, found bool)
// '<', '>', '&', a byte >= 0x80, a '"' not escaped, or the '\\' of \u,
// \/ or "\\\\".
#define GOOWN MOVO X0, X1; EQ(X8); EQ(X9); EQ(X10) // and the high bit of a byte >= 0x80

TEXT ·skipGoEscBlocks(SB), NOSPLIT, $0-41
	START(17)
	LOADC(LT, X8)
	LOADC(GT, X9)
	LOADC(AMP, X10)
	CMPQ AX, BX
	JG   end
	BLOCK(GOOWN, RESTYLEESC, NOP, NOP)
	ENDSKIP

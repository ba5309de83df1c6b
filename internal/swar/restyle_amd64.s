//go:build !purego

#include "textflag.h"
#include "blocks_amd64.h"

// restylePythonBlocks (restyle.go) copies sixteen bytes at a time to dst,
// whatever they are, and then moves past those before the block's first
// stop: a '"' not escaped, 0x7f, a byte >= 0x80, or the '\\' of \u, \/
// or "\\\\"; the other escapes are copied as they are, passed over as
// escape.go's scanners pass them (a '\\' ending a block escapes the next
// block's first byte: CX). The stop is handled here when it is one of the
// common ones, or left to the caller. Registers: SI src, AX the index in
// it, BX its last start of a block (which needs the byte after it); DI
// dst's array, R8 the length written, R9 the last length from which a
// block and a byte still fit; X4, X5, X6, X7, X8 sixteen '"', '\\', 0x7f,
// 'u', '/'; R11 hexv<>, R12 hexd<>. With canon (RespellPython), a \u00XX
// Python writes as an escape is written as Python writes it (lower-case
// digits) or left to the caller, rather than copied, and a control
// character is a stop too (X9).

// hexv<> is the value of each byte as a hex digit, 0xff for a byte that
// is not one; hexd<> the sixteen digits Python writes.
DATA hexv<>+0(SB)/8, $0xffffffffffffffff
DATA hexv<>+8(SB)/8, $0xffffffffffffffff
DATA hexv<>+16(SB)/8, $0xffffffffffffffff
DATA hexv<>+24(SB)/8, $0xffffffffffffffff
DATA hexv<>+32(SB)/8, $0xffffffffffffffff
DATA hexv<>+40(SB)/8, $0xffffffffffffffff
DATA hexv<>+48(SB)/8, $0x0706050403020100
DATA hexv<>+56(SB)/8, $0xffffffffffff0908
DATA hexv<>+64(SB)/8, $0xff0f0e0d0c0b0aff
DATA hexv<>+72(SB)/8, $0xffffffffffffffff
DATA hexv<>+80(SB)/8, $0xffffffffffffffff
DATA hexv<>+88(SB)/8, $0xffffffffffffffff
DATA hexv<>+96(SB)/8, $0xff0f0e0d0c0b0aff
DATA hexv<>+104(SB)/8, $0xffffffffffffffff
DATA hexv<>+112(SB)/8, $0xffffffffffffffff
DATA hexv<>+120(SB)/8, $0xffffffffffffffff
DATA hexv<>+128(SB)/8, $0xffffffffffffffff
DATA hexv<>+136(SB)/8, $0xffffffffffffffff
DATA hexv<>+144(SB)/8, $0xffffffffffffffff
DATA hexv<>+152(SB)/8, $0xffffffffffffffff
DATA hexv<>+160(SB)/8, $0xffffffffffffffff
DATA hexv<>+168(SB)/8, $0xffffffffffffffff
DATA hexv<>+176(SB)/8, $0xffffffffffffffff
DATA hexv<>+184(SB)/8, $0xffffffffffffffff
DATA hexv<>+192(SB)/8, $0xffffffffffffffff
DATA hexv<>+200(SB)/8, $0xffffffffffffffff
DATA hexv<>+208(SB)/8, $0xffffffffffffffff
DATA hexv<>+216(SB)/8, $0xffffffffffffffff
DATA hexv<>+224(SB)/8, $0xffffffffffffffff
DATA hexv<>+232(SB)/8, $0xffffffffffffffff
DATA hexv<>+240(SB)/8, $0xffffffffffffffff
DATA hexv<>+248(SB)/8, $0xffffffffffffffff
GLOBL hexv<>(SB), RODATA|NOPTR, $256
DATA hexd<>+0(SB)/8, $0x3736353433323130
DATA hexd<>+8(SB)/8, $0x6665646362613938
GLOBL hexd<>(SB), RODATA|NOPTR, $16

// HEXAT ORs into R10 the digit of bits S to S+3 of DX, at byte B.
#define HEXAT(S, B) \
	MOVL DX, CX; \
	SHRL $S, CX; \
	ANDL $15, CX; \
	MOVBQZX (R12)(CX*1), CX; \
	SHLQ $(8*B), CX; \
	ORQ  CX, R10

// COPY copies the N bytes at AX to R8 as they are, STORE writing them
// from DX, and goes on.
#define COPY(STORE, N) \
	MOVQ (SI)(AX*1), DX; \
	STORE DX, (DI)(R8*1); \
	ADDQ $N, AX; \
	ADDQ $N, R8; \
	JMP  next

// CONT jumps to done unless register R holds a continuation byte.
#define CONT(R) \
	MOVL R, R10; \
	ANDL $0xc0, R10; \
	CMPL R10, $0x80; \
	JNE  done

// func restylePythonBlocks(dst, src []byte, i int, canon bool) (n, j int)
TEXT ·restylePythonBlocks(SB), NOSPLIT, $0-80
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), R8
	MOVQ dst_cap+16(FP), R9
	SUBQ $17, R9
	MOVQ src_base+24(FP), SI
	MOVQ src_len+32(FP), BX
	SUBQ $17, BX
	MOVQ i+48(FP), AX
	BCAST(0x2222222222222222, X4)
	BCAST(0x5c5c5c5c5c5c5c5c, X5)
	BCAST(0x7f7f7f7f7f7f7f7f, X6)
	BCAST(0x7575757575757575, X7)
	BCAST(0x2f2f2f2f2f2f2f2f, X8)
	LEAQ hexv<>(SB), R11
	LEAQ hexd<>(SB), R12
	// X9: with canon, sixteen 0x20, above every control character
	// (compared signed: the bytes >= 0x80 are below too, and stops
	// already), so that a control character is a stop; else sixteen
	// 0x80, above nothing.
	BCAST(0x8080808080808080, X9)
	CMPB canon+56(FP), $0
	JEQ  next
	BCAST(0x2020202020202020, X9)

next:
	XORL CX, CX

loop:
	CMPQ AX, BX
	JGT  limit
	CMPQ R8, R9
	JGT  limit
	MOVOU (SI)(AX*1), X0
	MOVOU X0, (DI)(R8*1)
	MOVO X5, X13
	PCMPEQB X0, X13
	PMOVMSKB X13, R10
	MOVO X4, X1
	PCMPEQB X0, X1
	MOVO X6, X2
	PCMPEQB X0, X2
	POR  X2, X1
	POR  X0, X1 // the high bit of a byte >= 0x80
	MOVO X9, X10
	PCMPGTB X0, X10
	POR  X10, X1
	PMOVMSKB X1, DX
	MOVL R10, R13
	ORL  CX, R13
	JNZ  escapes
	TESTL DX, DX
	JNZ  stop
	ADDQ $16, AX
	ADDQ $16, R8
	JMP  loop

escapes:
	// The '\\' of \u, \/ and "\\\\" are stops; the bytes after the
	// others (and the first, after a '\\' ending the last block) are not.
	MOVOU 1(SI)(AX*1), X3
	MOVO X7, X14
	PCMPEQB X3, X14
	MOVO X8, X15
	PCMPEQB X3, X15
	POR  X15, X14
	MOVO X5, X15
	PCMPEQB X3, X15
	POR  X15, X14
	PAND X13, X14
	PMOVMSKB X14, R13
	LEAL (CX)(R10*2), CX
	NOTL CX
	ANDL CX, DX
	ORL  R13, DX
	SHRL $15, R10
	MOVL R10, CX
	TESTL DX, DX
	JNZ  stop
	ADDQ $16, AX
	ADDQ $16, R8
	JMP  loop

limit:
	// Past an escape begun by the last byte looked at: its second byte.
	TESTL CX, CX
	JZ   done
	MOVB (SI)(AX*1), DX
	MOVB DX, (DI)(R8*1)
	INCQ AX
	INCQ R8
	JMP  done

stop:
	// The bytes before the stop are written already. The stop is read
	// and written here only with a block's room left on both sides.
	BSFL DX, CX
	ADDQ CX, AX
	ADDQ CX, R8
	CMPQ AX, BX
	JGT  done
	CMPQ R8, R9
	JGT  done
	MOVBLZX (SI)(AX*1), DX
	CMPL DX, $0x5c
	JEQ  backslash
	CMPL DX, $0x80
	JAE  nonascii
	JMP  done // '"', or 0x7f

backslash:
	// \\ as it is; \u00XX below; \/ and other \u are the caller's.
	MOVBLZX 1(SI)(AX*1), DX
	CMPL DX, $0x75
	JEQ  uesc
	CMPL DX, $0x2f
	JEQ  done
	COPY(MOVW, 2)

uesc:
	// \u00XX: the character itself when Python writes it so ('<' for
	// Go's \u003c), else the six bytes.
	MOVWLZX 2(SI)(AX*1), DX
	CMPL DX, $0x3030
	JNE  done
	MOVBLZX 4(SI)(AX*1), DX
	MOVBLZX (R11)(DX*1), DX
	MOVBLZX 5(SI)(AX*1), CX
	MOVBLZX (R11)(CX*1), CX
	MOVL DX, R10
	ORL  CX, R10
	CMPL R10, $0x0f
	JA   done
	SHLL $4, DX
	ORL  CX, DX
	CMPL DX, $0x20
	JB   keep6
	CMPL DX, $0x7f
	JAE  keep6
	CMPL DX, $0x22
	JEQ  keep6
	CMPL DX, $0x5c
	JEQ  keep6
	MOVB DX, (DI)(R8*1)
	ADDQ $6, AX
	INCQ R8
	JMP  next

keep6:
	CMPB canon+56(FP), $0
	JEQ  copy6
	// Canon: a control character, '"' and '\\' are written as Python
	// writes them by the caller (\n, \"); 0x7f and up as \u00xx.
	CMPL DX, $0x7f
	JB   done
	MOVQ $0x3030755c, R10 // "\u00"
	HEXAT(4, 4)
	HEXAT(0, 5)
	MOVQ R10, (DI)(R8*1)
	ADDQ $6, AX
	ADDQ $6, R8
	JMP  next

copy6:
	COPY(MOVQ, 6)

nonascii:
	// A two- or three-byte UTF-8 sequence, valid, as \uXXXX; the rest
	// (four bytes, bad UTF-8) is the caller's. DX is the first byte, the
	// character's value ends in DX, its length in R13.
	CMPL DX, $0xe0
	JAE  three
	CMPL DX, $0xc2
	JB   done
	MOVBLZX 1(SI)(AX*1), CX
	CONT(CX)
	ANDL $0x1f, DX
	SHLL $6, DX
	ANDL $0x3f, CX
	ORL  CX, DX
	MOVL $2, R13
	JMP  escape

three:
	CMPL DX, $0xf0
	JAE  done
	MOVBLZX 1(SI)(AX*1), CX
	CONT(CX)
	MOVBLZX 2(SI)(AX*1), R13
	CONT(R13)
	ANDL $0x0f, DX
	SHLL $12, DX
	ANDL $0x3f, CX
	SHLL $6, CX
	ORL  CX, DX
	ANDL $0x3f, R13
	ORL  R13, DX
	CMPL DX, $0x800
	JB   done // overlong
	MOVL DX, R10
	ANDL $0xf800, R10
	CMPL R10, $0xd800
	JEQ  done // a surrogate
	MOVL $3, R13

escape:
	MOVQ $0x755c, R10 // "\u"
	HEXAT(12, 2)
	HEXAT(8, 3)
	HEXAT(4, 4)
	HEXAT(0, 5)
	MOVQ R10, (DI)(R8*1)
	ADDQ R13, AX
	ADDQ $6, R8
	JMP  next

done:
	MOVQ R8, n+64(FP)
	MOVQ AX, j+72(FP)
	RET

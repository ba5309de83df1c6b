//go:build !purego

#include "textflag.h"
#include "blocks_amd64.h"

// The scanners' blocks: each function below returns the index of the
// first byte of its class at or after i and true, looking sixteen bytes
// at a time while a whole block remains; when none is found, the index of
// the first byte not looked at (fewer than 16 remain from it) and false. X1 gathers a block's
// flags, whose high bits PMOVMSKB reads: a byte of the block with its own
// high bit set (>= 0x80) is flagged by ORing the block into X1.

// START loads b and i, and sets BX to the last start of a whole block.
#define START \
	MOVQ b_base+0(FP), SI; \
	MOVQ b_len+8(FP), BX; \
	MOVQ i+24(FP), AX; \
	SUBQ $16, BX

// FIRST starts X1 with the bytes of X0 equal to those of C.
#define FIRST(C) MOVO C, X1; PCMPEQB X0, X1

// EQ flags into X1 the bytes of X0 equal to those of C.
#define EQ(C) MOVO C, X2; PCMPEQB X0, X2; POR X2, X1

// BELOW flags into X1 the bytes of X0 below the byte of C (<= 0x80) and the
// bytes >= 0x80, which are negative in PCMPGTB's signed order.
#define BELOW(C) MOVO C, X2; PCMPGTB X0, X2; POR X2, X1

// NEXT ends a block: to found with the flags in DX, or on to the next.
#define NEXT \
	PMOVMSKB X1, DX; \
	TESTL DX, DX; \
	JNZ found; \
	ADDQ $16, AX; \
	CMPQ AX, BX; \
	JLE loop

// func plainPythonBlocks(b []byte, i int) (j int, found bool)
// '"', '\\', a control character or a byte >= 0x7f.
TEXT ·plainPythonBlocks(SB), NOSPLIT, $0-41
	START
	BCAST(0x2222222222222222, X4)
	BCAST(0x5c5c5c5c5c5c5c5c, X5)
	BCAST(0x7f7f7f7f7f7f7f7f, X6)
	BCAST(0x2020202020202020, X7)
	CMPQ AX, BX
	JG   end
loop:
	MOVOU (SI)(AX*1), X0
	FIRST(X4)
	EQ(X5)
	EQ(X6)
	BELOW(X7)
	NEXT
end:
	END

// func plainGoBlocks(b []byte, i int) (j int, found bool)
// '"', '\\', '<', '>', '&', a control character or a byte >= 0x80.
TEXT ·plainGoBlocks(SB), NOSPLIT, $0-41
	START
	BCAST(0x2222222222222222, X4)
	BCAST(0x5c5c5c5c5c5c5c5c, X5)
	BCAST(0x3c3c3c3c3c3c3c3c, X6)
	BCAST(0x3e3e3e3e3e3e3e3e, X7)
	BCAST(0x2626262626262626, X8)
	BCAST(0x2020202020202020, X9)
	CMPQ AX, BX
	JG   end
loop:
	MOVOU (SI)(AX*1), X0
	FIRST(X4)
	EQ(X5)
	EQ(X6)
	EQ(X7)
	EQ(X8)
	BELOW(X9)
	NEXT
end:
	END

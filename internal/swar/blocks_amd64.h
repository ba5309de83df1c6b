// Macros of the scanners' assembly (stop_amd64.s, escape_amd64.s,
// redact_amd64.s).

// BCAST fills the 16 bytes of X with the byte repeated in the 8 of c.
#define BCAST(c, X) MOVQ $c, DX; MOVQ DX, X; PUNPCKLQDQ X, X

// END returns, for a function (b []byte, i int) (j int, found bool), the
// index in AX and false; at found, the index of the lowest flag of DX
// from AX and true.
#define END \
	MOVQ AX, j+32(FP); \
	MOVB $0, found+40(FP); \
	RET; \
found: \
	BSFL DX, DX; \
	ADDQ DX, AX; \
	MOVQ AX, j+32(FP); \
	MOVB $1, found+40(FP); \
	RET

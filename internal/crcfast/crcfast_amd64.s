#include "textflag.h"

// func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL leaf+0(FP), AX
	MOVL sub+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// Fold constants (see fold in crcfast_amd64.go): for D = 1024, twice (one
// pair per 128-bit lane), for D = 128, the 64-to-32 step and the Barrett
// pair (P and the quotient of x^64 by P, bit-reflected).
DATA k1024<>+0(SB)/8, $0x1e88ef372
DATA k1024<>+8(SB)/8, $0x14a7fe880
DATA k1024<>+16(SB)/8, $0x1e88ef372
DATA k1024<>+24(SB)/8, $0x14a7fe880
GLOBL k1024<>(SB), RODATA, $32

DATA k128<>+0(SB)/8, $0x1751997d0
DATA k128<>+8(SB)/8, $0x0ccaa009e
GLOBL k128<>(SB), RODATA, $16

DATA k64<>+0(SB)/8, $0x163cd6124
GLOBL k64<>(SB), RODATA, $8

DATA barrett<>+0(SB)/8, $0x1db710641
DATA barrett<>+8(SB)/8, $0x1f7011641
GLOBL barrett<>(SB), RODATA, $16

// lane folds the 128-bit value in X1 forward by 128 bits onto next, with
// the k128 pair in X0; the sum is left in X1.
#define FOLD128(next) \
	MOVOU     X1, X9 \
	PCLMULQDQ $0x00, X0, X1 \
	PCLMULQDQ $0x11, X0, X9 \
	PXOR      X9, X1 \
	PXOR      next, X1

// func fold(crc uint32, p []byte) uint32
TEXT ·fold(SB), NOSPLIT, $0-36
	MOVL crc+0(FP), AX
	MOVQ p_base+8(FP), SI
	MOVQ p_len+16(FP), CX

	VMOVD   AX, X0
	VMOVDQU (SI), Y1
	VMOVDQU 32(SI), Y2
	VMOVDQU 64(SI), Y3
	VMOVDQU 96(SI), Y4
	VPXOR   Y0, Y1, Y1
	ADDQ    $128, SI
	SUBQ    $128, CX
	CMPQ    CX, $128
	JB      lanes

	VMOVDQU k1024<>(SB), Y0

round:
	VPCLMULQDQ $0x11, Y0, Y1, Y5
	VPCLMULQDQ $0x00, Y0, Y1, Y1
	VPCLMULQDQ $0x11, Y0, Y2, Y6
	VPCLMULQDQ $0x00, Y0, Y2, Y2
	VPCLMULQDQ $0x11, Y0, Y3, Y7
	VPCLMULQDQ $0x00, Y0, Y3, Y3
	VPCLMULQDQ $0x11, Y0, Y4, Y8
	VPCLMULQDQ $0x00, Y0, Y4, Y4
	VPXOR      (SI), Y5, Y5
	VPXOR      32(SI), Y6, Y6
	VPXOR      64(SI), Y7, Y7
	VPXOR      96(SI), Y8, Y8
	VPXOR      Y5, Y1, Y1
	VPXOR      Y6, Y2, Y2
	VPXOR      Y7, Y3, Y3
	VPXOR      Y8, Y4, Y4
	ADDQ       $128, SI
	SUBQ       $128, CX
	CMPQ       CX, $128
	JAE        round

lanes:
	// The eight lanes, oldest first: X1, X5, X2, X6, X3, X7, X4, X8.
	VEXTRACTI128 $1, Y1, X5
	VEXTRACTI128 $1, Y2, X6
	VEXTRACTI128 $1, Y3, X7
	VEXTRACTI128 $1, Y4, X8
	VZEROUPPER

	MOVOU k128<>(SB), X0
	FOLD128(X5)
	FOLD128(X2)
	FOLD128(X6)
	FOLD128(X3)
	FOLD128(X7)
	FOLD128(X4)
	FOLD128(X8)

	CMPQ CX, $16
	JB   reduce

rest:
	MOVOU (SI), X10
	FOLD128(X10)
	ADDQ  $16, SI
	SUBQ  $16, CX
	CMPQ  CX, $16
	JAE   rest

reduce:
	// 128 bits to 64: the low half moved 64 bits on (the k128 pair's
	// second constant), plus the high half.
	PCMPEQB   X3, X3
	PCLMULQDQ $0x01, X1, X0
	PSRLDQ    $8, X1
	PXOR      X0, X1

	// 64 bits to 32 (k64), under a 32-bit mask.
	MOVOU     X1, X2
	MOVQ      k64<>(SB), X0
	PSRLQ     $32, X3
	PSRLDQ    $4, X2
	PAND      X3, X1
	PCLMULQDQ $0x00, X0, X1
	PXOR      X2, X1

	// Barrett reduction.
	MOVOU     barrett<>(SB), X0
	MOVOU     X1, X2
	PAND      X3, X1
	PCLMULQDQ $0x10, X0, X1
	PAND      X3, X1
	PCLMULQDQ $0x00, X0, X1
	PXOR      X2, X1

	PEXTRD $1, X1, AX
	MOVL   AX, ret+32(FP)
	RET

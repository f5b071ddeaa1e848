package crcfast

import "golang.org/x/sys/cpu"

// haveFold says the processor has VPCLMULQDQ on 256-bit registers (CPUID
// leaf 7, ECX bit 10), with AVX2 enabled by the OS; x/sys/cpu reports that
// bit only together with AVX-512.
var haveFold = cpu.X86.HasAVX2 && cpu.X86.HasPCLMULQDQ && cpu.X86.HasSSE41 && hasVPCLMULQDQ()

func hasVPCLMULQDQ() bool {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, _, ecx, _ := cpuid(7, 0)
	return ecx&(1<<10) != 0
}

// cpuid is the CPUID instruction.
func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)

// fold is the CRC-32 (IEEE, bit-reflected, without the pre- and
// post-inversion) of p, len(p) >= 128 and a multiple of 16: four 256-bit
// accumulators fold 128 bytes per round (eight 128-bit lanes, each moved
// 1024 bits ahead), then the lanes fold into one, then 16 bytes at a time,
// then a Barrett reduction to 32 bits. The method is Intel's "Fast CRC
// Computation for Generic Polynomials Using PCLMULQDQ Instruction"; the
// constants are x^(D±32) mod P, bit-reflected and shifted left by one, for
// the fold distances D (crcfast_test.go derives and checks them).
func fold(crc uint32, p []byte) uint32

// Package crcjoin joins and splits CRC-32 (IEEE) checksums of adjacent byte
// ranges without reading the bytes again: given the CRCs of A and B and B's
// length, it gives the CRC of A followed by B, and given the CRCs of A+B and
// of A, the CRC of B. The registration handler gets the CRC of a whole body
// (what the bodyCrc32 header checks) from the server, which takes it while
// the bytes arrive, and derives the CRC of the body without its DataVersion
// (the table fingerprint) by reading only the bytes up to the end of the
// version: a second pass over 2 MB cost a tenth of the server's CPU in a
// registration storm.
package crcjoin

// ieeeReversed is the IEEE polynomial in the bit-reversed form that
// hash/crc32 uses: bit 31 holds the coefficient of x^0.
const ieeeReversed = 0xEDB88320

// one is the polynomial 1 (x^0) in that form.
const one = uint32(1) << 31

// mulMod multiplies the polynomials a and b modulo the IEEE polynomial.
// Walking a's coefficients from x^0 upward, each set coefficient adds the
// current b, and b is multiplied by x (a right shift, reduced) per step.
func mulMod(a, b uint32) uint32 {
	var product uint32
	for bit := one; bit != 0 && a != 0; bit >>= 1 {
		if a&bit != 0 {
			product ^= b
			a &^= bit
		}
		if b&1 != 0 {
			b = b>>1 ^ ieeeReversed
		} else {
			b >>= 1
		}
	}
	return product
}

// xPow2k[k] is x^(2^k) modulo the polynomial, for the square-and-multiply
// of xPowBytes.
var xPow2k = func() (t [64]uint32) {
	t[0] = one >> 1 // x^1
	for k := 1; k < len(t); k++ {
		t[k] = mulMod(t[k-1], t[k-1])
	}
	return t
}()

// xPowBytes is x^(8n) modulo the polynomial: appending n bytes to a message
// multiplies its register by it.
func xPowBytes(n uint64) uint32 {
	result := one
	for k := 3; n != 0; k, n = k+1, n>>1 { // 8n = n<<3: start at x^(2^3)
		if n&1 != 0 {
			result = mulMod(result, xPow2k[k])
		}
	}
	return result
}

// IEEE returns the CRC-32 (IEEE, as crc32.ChecksumIEEE computes it) of A
// followed by B, given crcA, crcB and B's length. The pre- and
// post-conditioning (the all-ones start and final inversion) cancel out, so
// the joined CRC is crcA shifted over B's bits, plus crcB.
func IEEE(crcA, crcB uint32, lenB int) uint32 {
	if lenB <= 0 {
		return crcA
	}
	return mulMod(xPowBytes(uint64(lenB)), crcA) ^ crcB
}

// IEEESuffix returns the CRC-32 (IEEE) of B, given the CRC of A followed by
// B, the CRC of A and B's length: joining is a shift of crcA over B's bits
// plus crcB, and the sum is its own inverse.
func IEEESuffix(crcAB, crcA uint32, lenB int) uint32 {
	return crcAB ^ IEEE(crcA, 0, lenB)
}

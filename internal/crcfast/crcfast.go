// Package crcfast computes the CRC-32 (IEEE) of large buffers faster than
// hash/crc32 where the processor folds 256-bit registers with VPCLMULQDQ
// (AMD Zen 3 and later, Intel Ice Lake and later). A broker's registration
// body is ~2 MB and must be checked against its bodyCrc32 every 30 s; with
// hash/crc32's 128-bit folding the sum was 40% of the NameServer's CPU per
// registration and kept the event loop that read the frame from its route
// queries for as long.
package crcfast

import "hash/crc32"

// minFold is the shortest buffer worth the vector path: below it the
// setup and the final reduction cost more than hash/crc32's loop.
const minFold = 256

// Update returns the CRC-32 (IEEE) of p appended to data whose CRC is crc:
// the same value as crc32.Update(crc, crc32.IEEETable, p).
func Update(crc uint32, p []byte) uint32 {
	if !haveFold || len(p) < minFold {
		return crc32.Update(crc, crc32.IEEETable, p)
	}
	n := len(p) &^ 15
	crc = ^fold(^crc, p[:n])
	return crc32.Update(crc, crc32.IEEETable, p[n:])
}

// Checksum is Update from zero.
func Checksum(p []byte) uint32 { return Update(0, p) }

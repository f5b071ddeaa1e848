package crcfast

import (
	"hash/crc32"
	"math/rand/v2"
	"testing"
)

func TestUpdateAgreesWithHashCRC32(t *testing.T) {
	if !haveFold {
		t.Log("this processor has no 256-bit VPCLMULQDQ: Update is hash/crc32 here")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 70000)
	for i := range buf {
		buf[i] = byte(rng.Uint32())
	}
	for n := 0; n < 2100; n++ {
		for _, off := range []int{0, 1, 7} {
			p := buf[off : off+n]
			for _, seed := range []uint32{0, 0xdeadbeef} {
				if got, want := Update(seed, p), crc32.Update(seed, crc32.IEEETable, p); got != want {
					t.Fatalf("len %d offset %d seed %#x: %#x, want %#x", n, off, seed, got, want)
				}
			}
		}
	}
	for _, n := range []int{65535, 65536, 69999} {
		if got, want := Checksum(buf[:n]), crc32.ChecksumIEEE(buf[:n]); got != want {
			t.Fatalf("len %d: %#x, want %#x", n, got, want)
		}
	}
	// Summed in pieces, as a frame arrives.
	crc := uint32(0)
	for at := 0; at < len(buf); {
		n := min(len(buf)-at, 1+rng.IntN(9000))
		crc = Update(crc, buf[at:at+n])
		at += n
	}
	if want := crc32.ChecksumIEEE(buf); crc != want {
		t.Fatalf("in pieces: %#x, want %#x", crc, want)
	}
}

func BenchmarkChecksum2MB(b *testing.B) {
	buf := make([]byte, 2<<20)
	b.Run("crcfast", func(b *testing.B) {
		b.SetBytes(int64(len(buf)))
		for b.Loop() {
			Checksum(buf)
		}
	})
	b.Run("hash-crc32", func(b *testing.B) {
		b.SetBytes(int64(len(buf)))
		for b.Loop() {
			crc32.ChecksumIEEE(buf)
		}
	})
}

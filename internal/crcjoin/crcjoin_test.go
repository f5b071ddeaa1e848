package crcjoin

import (
	"hash/crc32"
	"math/rand/v2"
	"testing"
)

func TestIEEEEqualsTheChecksumOfTheConcatenation(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	data := make([]byte, 5<<20)
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	// Lengths around the boundaries of the square-and-multiply (powers of
	// two), empty pieces, and a 2 MB body as a registration sends.
	sizes := []int{0, 1, 2, 3, 7, 8, 9, 63, 64, 65, 255, 256, 4095, 4096, 65537, 2<<20 + 13}
	for _, la := range sizes {
		for _, lb := range sizes {
			a, b := data[:la], data[la:la+lb]
			want := crc32.ChecksumIEEE(data[:la+lb])
			if got := IEEE(crc32.ChecksumIEEE(a), crc32.ChecksumIEEE(b), lb); got != want {
				t.Fatalf("len(A)=%d len(B)=%d: joined %08x, checksum of A+B %08x", la, lb, got, want)
			}
			if got, wantB := IEEESuffix(want, crc32.ChecksumIEEE(a), lb), crc32.ChecksumIEEE(b); got != wantB {
				t.Fatalf("len(A)=%d len(B)=%d: suffix %08x, checksum of B %08x", la, lb, got, wantB)
			}
		}
	}
}

func TestIEEEJoinsThreePiecesInEitherOrder(t *testing.T) {
	a, b, c := []byte("{\"dataVersion\":"), []byte("{\"counter\":7}"), []byte(",\"topicConfigTable\":{}}")
	whole := append(append(append([]byte{}, a...), b...), c...)
	ca, cb, cc := crc32.ChecksumIEEE(a), crc32.ChecksumIEEE(b), crc32.ChecksumIEEE(c)
	left := IEEE(IEEE(ca, cb, len(b)), cc, len(c))
	right := IEEE(ca, IEEE(cb, cc, len(c)), len(b)+len(c))
	if want := crc32.ChecksumIEEE(whole); left != want || right != want {
		t.Fatalf("joined %08x and %08x, want %08x", left, right, want)
	}
	skipped := append(append([]byte{}, a...), c...)
	if got, want := IEEE(ca, cc, len(c)), crc32.ChecksumIEEE(skipped); got != want {
		t.Fatalf("A+C joined %08x, want %08x", got, want)
	}
}

func FuzzIEEE(f *testing.F) {
	f.Add([]byte("hello, world"), uint16(5))
	f.Fuzz(func(t *testing.T, data []byte, cut uint16) {
		at := int(cut) % (len(data) + 1)
		a, b := data[:at], data[at:]
		if got, want := IEEE(crc32.ChecksumIEEE(a), crc32.ChecksumIEEE(b), len(b)), crc32.ChecksumIEEE(data); got != want {
			t.Fatalf("cut %d of %d: joined %08x, want %08x", at, len(data), got, want)
		}
		if got, want := IEEESuffix(crc32.ChecksumIEEE(data), crc32.ChecksumIEEE(a), len(b)), crc32.ChecksumIEEE(b); got != want {
			t.Fatalf("cut %d of %d: suffix %08x, want %08x", at, len(data), got, want)
		}
	})
}

func BenchmarkIEEEJoin2MB(b *testing.B) {
	for b.Loop() {
		_ = IEEE(0x12345678, 0x9abcdef0, 2<<20)
	}
}

package acl

import (
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/aclsign"
)

// BenchmarkCheckRouteRead is the per-request cost of the access check of a
// route query: anonymous (aclAnonymousRouteRead) and signed.
func BenchmarkCheckRouteRead(b *testing.B) {
	c, _ := newTestChecker(b, testFile, Options{Enabled: true, AnonymousRouteRead: true})
	ext := map[string]string{"topic": "TopicTest"}
	signedExt := signed(user, ext, nil)
	b.Run("anonymous", func(b *testing.B) {
		for b.Loop() {
			if c.Check(RouteRead, ext, nil, local) != nil {
				b.Fatal("refused")
			}
		}
	})
	b.Run("signed", func(b *testing.B) {
		for b.Loop() {
			if c.Check(RouteRead, signedExt, nil, local) != nil {
				b.Fatal("refused")
			}
		}
	})
	b.Run("sign", func(b *testing.B) {
		for b.Loop() {
			out := map[string]string{"topic": "TopicTest"}
			aclsign.Sign(out, nil, user)
		}
	})
}

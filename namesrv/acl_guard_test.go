package namesrv

import (
	"reflect"
	"testing"

	"github.com/gonamesrv/gonamesrv/namesrv/config"
)

// TestUnguardedHandlersStayBare: with ACL off and no admin allow-list, the
// dispatch table holds the handlers themselves, so an unsigned route read
// costs nothing more than before; with adminWhiteRemoteAddresses only the
// admin writes are wrapped.
func TestUnguardedHandlersStayBare(t *testing.T) {
	for _, white := range []string{"", "127.0.0.1"} {
		s := startServer(t, func(cfg *config.Config) { cfg.AdminWhiteRemoteAddresses = white })
		for _, spec := range s.ns.handlerTable() {
			bare := reflect.ValueOf(s.ns.guarded(spec)).Pointer() == reflect.ValueOf(spec.handler).Pointer()
			wantBare := white == "" || spec.class != classAdminWrite
			if bare != wantBare {
				t.Errorf("white %q, code %d: bare=%v, want %v", white, spec.code, bare, wantBare)
			}
		}
	}
}

package remoting

import (
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The folder of gnet's parking socket (acceptor.go): os.TempDir()/
// gonamesrv-NNN/unused.sock. It lives only while the engine starts, so a
// process killed (kill -9) in those milliseconds leaves one behind.
const (
	parkingPrefix = "gonamesrv-"
	parkingSocket = "unused.sock"
	// parkingStaleAfter is the age past which a parking folder is a
	// leftover: a starting server removes its own within milliseconds.
	parkingStaleAfter = time.Minute
)

// removeStaleParking removes, from dir, parking folders older than
// parkingStaleAfter that hold nothing but the socket (the tests' own
// gonamesrv-e2e-bin folders and anything else that holds more are left
// alone). Errors are ignored: it is tidying, another process may be doing
// the same, and a folder that cannot be removed harms nothing.
func removeStaleParking(dir string, now time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, entry := range entries {
		if !entry.IsDir() || !strings.HasPrefix(entry.Name(), parkingPrefix) {
			continue
		}
		info, err := entry.Info()
		if err != nil || now.Sub(info.ModTime()) < parkingStaleAfter {
			continue
		}
		path := filepath.Join(dir, entry.Name())
		if onlyParkingSocket(path) {
			_ = os.RemoveAll(path)
		}
	}
}

// onlyParkingSocket says whether the folder is empty or holds only the
// parking socket.
func onlyParkingSocket(path string) bool {
	inside, err := os.ReadDir(path)
	if err != nil {
		return false
	}
	return len(inside) == 0 || (len(inside) == 1 && inside[0].Name() == parkingSocket && inside[0].Type()&os.ModeSocket != 0)
}

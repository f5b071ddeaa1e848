package remoting

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// parkingFolders lists the gonamesrv-* folders in dir.
func parkingFolders(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), parkingPrefix) {
			names = append(names, e.Name())
		}
	}
	return names
}

// TestRunningServerHasNoParkingFolder: once started, the server holds no
// folder in the temp directory, so a kill -9 leaves none behind.
func TestRunningServerHasNoParkingFolder(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	server := startServer(t, ServerConfig{}, func(s *Server) { s.Handle(GET_NAMESRV_CONFIG, echoHandler) })
	if left := parkingFolders(t, tmp); len(left) != 0 {
		t.Fatalf("a running server holds %v in TMPDIR", left)
	}
	peer := dialRaw(t, server)
	peer.send(&Command{Code: GET_NAMESRV_CONFIG, Opaque: 5})
	if resp := peer.read(); resp.Opaque != 5 {
		t.Fatalf("answered %+v", resp)
	}
}

// TestStaleParkingFoldersRemovedAtStart: a start removes parking folders
// older than parkingStaleAfter that hold only the socket, and leaves young
// ones (a server starting beside it) and folders holding anything else.
func TestStaleParkingFoldersRemovedAtStart(t *testing.T) {
	tmp := t.TempDir()
	old := time.Now().Add(-2 * parkingStaleAfter)
	folder := func(name string, files ...string) string {
		path := filepath.Join(tmp, name)
		if err := os.Mkdir(path, 0o700); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if f == parkingSocket {
				ln, err := net.Listen("unix", filepath.Join(path, f))
				if err != nil {
					t.Fatal(err)
				}
				ln.(*net.UnixListener).SetUnlinkOnClose(false)
				_ = ln.Close() // the socket file stays, as after kill -9
			} else if err := os.WriteFile(filepath.Join(path, f), []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return path
	}
	stale := folder(parkingPrefix+"111", parkingSocket)
	staleEmpty := folder(parkingPrefix + "222")
	young := folder(parkingPrefix+"333", parkingSocket)
	binaries := folder(parkingPrefix+"e2e-bin444", "namesrv")
	fake := folder(parkingPrefix + "555") // a plain file by the socket's name
	if err := os.WriteFile(filepath.Join(fake, parkingSocket), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	other := folder("other-666", parkingSocket)
	for _, p := range []string{stale, staleEmpty, binaries, fake, other} {
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("TMPDIR", tmp)
	startServer(t, ServerConfig{}, nil)
	for path, wantGone := range map[string]bool{stale: true, staleEmpty: true, young: false, binaries: false, fake: false, other: false} {
		_, err := os.Stat(path)
		if gone := os.IsNotExist(err); gone != wantGone {
			t.Errorf("%s: gone %v, want %v", filepath.Base(path), gone, wantGone)
		}
	}
}

package faults

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/testlog"
	"github.com/gonamesrv/gonamesrv/namesrv/kvconfig"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// mountTmpfs mounts a tmpfs of size bytes on a fresh folder and unmounts it
// when the test ends; it skips the case where mounting is not allowed.
func mountTmpfs(t *testing.T, r *row, size int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "disk")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", fmt.Sprintf("size=%d", size), "tmpfs", dir).CombinedOutput(); err != nil {
		r.skip(t, fmt.Sprintf("cannot mount a tmpfs (needs root and CAP_SYS_ADMIN): %v %s", err, strings.TrimSpace(string(out))))
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", "-l", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", dir, err, out)
		}
	})
	return dir
}

// remount changes the tmpfs to ro or rw.
func remount(t *testing.T, dir, mode string) {
	t.Helper()
	if out, err := exec.Command("mount", "-o", "remount,"+mode, dir).CombinedOutput(); err != nil {
		t.Fatalf("remount %s %s: %v %s", dir, mode, err, out)
	}
}

// fill writes a file until the file system is full and returns its path.
func fill(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 4096)
	for range 1 << 16 {
		if _, err := f.Write(chunk); err != nil {
			if errors.Is(err, syscall.ENOSPC) {
				return path
			}
			t.Fatal(err)
		}
	}
	t.Fatal("the tmpfs never filled")
	return ""
}

// updateConfig sends UPDATE_NAMESRV_CONFIG with one key=value line.
func updateConfig(addr, line string) (int32, string, error) {
	resp, err := call(addr, remoting.UPDATE_NAMESRV_CONFIG, nil, []byte(line+"\n"))
	if err != nil {
		return -1, "", err
	}
	return resp.Code, resp.Remark, nil
}

// TestDiskFullAndReadOnly puts the NameServer's data folder on a small
// tmpfs, fills it, then makes it read-only: PUT_KV_CONFIG and
// UPDATE_NAMESRV_CONFIG must be answered code 1 with the reason, nothing
// acknowledged that is not on disk, routes served all along, and writes must
// succeed again once space (or write access) returns.
func TestDiskFullAndReadOnly(t *testing.T) {
	r := record(t, 60, "disk full, then read-only", "data folder on a 256 KiB tmpfs: filled by another file, then remounted read-only; each time healed afterwards")
	dir := mountTmpfs(t, r, 256<<10)
	ns := startNamesrv(t, nsOptions{dataDir: dir})
	startBroker(t, brokerOptions{name: "disk-broker", nameServers: []*proc{ns}})
	if _, ok := waitFor(10*time.Second, 20*time.Millisecond, func() bool { return routed(ns, "disk-broker") }); !ok {
		t.Fatal("the broker never registered")
	}
	var acked []string
	put := func(key string) (int32, string) {
		code, remark, err := putKV(ns.Addr, kvNamespace, key, "v-"+key)
		if err != nil {
			t.Fatalf("PUT %s: %v", key, err)
		}
		remark = strings.ReplaceAll(remark, dir, "<data>")
		if code == remoting.SUCCESS {
			acked = append(acked, key)
		}
		return code, remark
	}
	routesServed := func(when string) {
		if _, code, err := routeOf(ns.Addr, "disk-broker"); err != nil || code != remoting.SUCCESS {
			t.Errorf("%s: route query code %d, err %v", when, code, err)
		}
	}
	if code, remark := put("before"); code != remoting.SUCCESS {
		t.Fatalf("PUT on an empty disk: %d %s", code, remark)
	}

	filler := fill(t, dir)
	code, remark := put("full")
	r.observe(t, "disk full: PUT_KV_CONFIG code %d %q", code, remark)
	if code != remoting.SYSTEM_ERROR || !strings.Contains(remark, "no space left on device") {
		t.Errorf("PUT on a full disk: code %d remark %q, want 1 naming ENOSPC", code, remark)
	}
	if _, ok, _ := getKV(ns.Addr, kvNamespace, "full"); ok {
		t.Error("a PUT refused for a full disk is served")
	}
	code, remark, err := updateConfig(ns.Addr, "orderMessageEnable=true")
	remark = strings.ReplaceAll(remark, dir, "<data>")
	r.observe(t, "disk full: UPDATE_NAMESRV_CONFIG code %d %q", code, remark)
	if err != nil || code != remoting.SYSTEM_ERROR || !strings.Contains(remark, "no space left on device") {
		t.Errorf("UPDATE_NAMESRV_CONFIG on a full disk: code %d remark %q err %v", code, remark, err)
	}
	routesServed("disk full")
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	if code, remark := put("after-full"); code != remoting.SUCCESS {
		t.Errorf("PUT once space returned: %d %s", code, remark)
	}
	if code, remark, err := updateConfig(ns.Addr, "orderMessageEnable=true"); err != nil || code != remoting.SUCCESS {
		t.Errorf("UPDATE_NAMESRV_CONFIG once space returned: %d %s %v", code, remark, err)
	}

	remount(t, dir, "ro")
	code, remark = put("readonly")
	r.observe(t, "read-only: PUT_KV_CONFIG code %d %q", code, remark)
	if code != remoting.SYSTEM_ERROR || !strings.Contains(remark, "read-only file system") {
		t.Errorf("PUT on a read-only folder: code %d remark %q, want 1 naming EROFS", code, remark)
	}
	code, remark, err = updateConfig(ns.Addr, "orderMessageEnable=false")
	remark = strings.ReplaceAll(remark, dir, "<data>")
	r.observe(t, "read-only: UPDATE_NAMESRV_CONFIG code %d %q", code, remark)
	if err != nil || code != remoting.SYSTEM_ERROR || !strings.Contains(remark, "read-only file system") {
		t.Errorf("UPDATE_NAMESRV_CONFIG on a read-only folder: code %d remark %q err %v", code, remark, err)
	}
	routesServed("read-only")
	remount(t, dir, "rw")
	if code, remark := put("after-readonly"); code != remoting.SUCCESS {
		t.Errorf("PUT once writable again: %d %s", code, remark)
	}

	store, err := kvconfig.Open(filepath.Join(dir, "kvConfig.json"), testlog.Discard())
	if err != nil {
		t.Fatalf("KV file after the faults: %v", err)
	}
	for _, key := range acked {
		if _, ok := store.Get(kvNamespace, key); !ok {
			t.Errorf("acknowledged key %s is not in the file", key)
		}
	}
	kv, _ := store.Namespace(kvNamespace)
	if len(kv) != len(acked) {
		t.Errorf("the file holds %d keys, %d were acknowledged", len(kv), len(acked))
	}
	r.figure(t, "acknowledged writes / keys in the file", fmt.Sprintf("%d / %d", len(acked), len(kv)))
	r.observe(t, "routes answered throughout; writes succeeded again once space and write access returned")
}

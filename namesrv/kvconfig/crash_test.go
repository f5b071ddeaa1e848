package kvconfig

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

// crashChildEnv, when set, turns the test binary into the crash-test child: it
// opens the store at the given path and puts keys until it is killed.
const crashChildEnv = "KVCONFIG_CRASH_CHILD_PATH"

// crashNamespace holds the keys the crash child writes.
const crashNamespace = "crash"

func TestMain(m *testing.M) {
	if path := os.Getenv(crashChildEnv); path != "" {
		os.Exit(runCrashChild(path))
	}
	os.Exit(m.Run())
}

// crashKey and crashValue name the i-th put; values are a few KB so the store
// file grows and a kill often lands in the middle of writing it.
func crashKey(i int) string { return fmt.Sprintf("k%06d", i) }

func crashValue(i int) string { return strconv.Itoa(i) + ":" + strings.Repeat("v", 4096) }

// runCrashChild continues the stream of puts after what the file already
// holds and prints the index of every acknowledged put on stdout.
func runCrashChild(path string) int {
	s, err := Open(path, testlog.Discard())
	if err != nil {
		fmt.Fprintln(os.Stderr, "child open:", err)
		return 2
	}
	kv, _ := s.Namespace(crashNamespace)
	out := bufio.NewWriter(os.Stdout)
	for i := len(kv); i < len(kv)+100000; i++ {
		if err := s.Put(crashNamespace, crashKey(i), crashValue(i)); err != nil {
			fmt.Fprintln(os.Stderr, "child put:", err)
			return 3
		}
		fmt.Fprintln(out, i)
		if err := out.Flush(); err != nil {
			return 4
		}
	}
	return 0
}

// TestCrashLeavesAPrefixOfThePuts kills a writer process (SIGKILL) at random
// points of a stream of puts, many times on the same file, and checks after
// every kill that the file still loads and holds exactly the first m puts,
// with m at least the number of puts the child had acknowledged.
func TestCrashLeavesAPrefixOfThePuts(t *testing.T) {
	rounds := 30
	if testing.Short() {
		rounds = 4
	}
	path := filepath.Join(t.TempDir(), "store", "kvConfig.json")
	acknowledged := 0
	for round := 0; round < rounds; round++ {
		acknowledged = crashChildOnce(t, path, acknowledged, 1+rand.IntN(25))
		s, err := Open(path, testlog.Discard())
		if err != nil {
			t.Fatalf("round %d: the file no longer loads after a kill: %v", round, err)
		}
		kv, _ := s.Namespace(crashNamespace)
		if len(kv) < acknowledged {
			t.Fatalf("round %d: file holds %d puts, but %d were acknowledged", round, len(kv), acknowledged)
		}
		for i := 0; i < len(kv); i++ {
			if kv[crashKey(i)] != crashValue(i) {
				t.Fatalf("round %d: the %d puts on disk are not a prefix: key %s is wrong or missing", round, len(kv), crashKey(i))
			}
		}
		acknowledged = len(kv)
	}
}

// crashChildOnce starts the child, lets it acknowledge more puts beyond
// the acknowledged count it starts from, kills it and returns the number of
// puts acknowledged in total.
func crashChildOnce(t *testing.T, path string, acknowledged, more int) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+path)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stdout)
	target := acknowledged + more
	for acknowledged < target && lines.Scan() {
		index, err := strconv.Atoi(lines.Text())
		if err != nil {
			t.Fatalf("child printed %q", lines.Text())
		}
		acknowledged = index + 1
	}
	// A random pause lets the kill land in any phase of the next put:
	// building the content, writing it, renaming.
	time.Sleep(time.Duration(rand.IntN(2000)) * time.Microsecond)
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if acknowledged < target {
		t.Fatalf("child stopped after %d acknowledged puts, before being killed", acknowledged)
	}
	return acknowledged
}

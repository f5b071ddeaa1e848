// Package repo gives the deploy tests what they check the deployment files
// against: the server's source tree (the config keys the binary really reads)
// and a freshly built NameServer binary. The deploy module is separate from
// the server's so that k8s.io/api stays out of the server's go.mod; this
// package reads the server's source instead of importing it.
package repo

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"sync"
	"testing"
)

// Root is the server's repository: the folder above deploy/, found from the
// test's working directory (a package folder inside deploy/).
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for d := dir; ; d = filepath.Dir(d) {
		if filepath.Base(d) == "deploy" {
			if _, err := os.Stat(filepath.Join(d, "..", "go.mod")); err == nil {
				return filepath.Dir(d)
			}
		}
		if filepath.Dir(d) == d {
			t.Fatalf("no deploy/ folder above %s", dir)
		}
	}
}

// ConfigKeys are the `prop` tags of namesrv/config.Config: every key the
// NameServer reads from a properties file or the command line.
func ConfigKeys(t testing.TB) map[string]bool {
	t.Helper()
	return keysOf(t, filepath.Join("namesrv", "config", "config.go"))
}

// ControllerConfigKeys are the `prop` tags of controller/config.Config:
// every key cmd/controller reads.
func ControllerConfigKeys(t testing.TB) map[string]bool {
	t.Helper()
	return keysOf(t, filepath.Join("controller", "config", "config.go"))
}

func keysOf(t testing.TB, source string) map[string]bool {
	t.Helper()
	keys, err := configKeys(filepath.Join(Root(t), source))
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

func configKeys(path string) (map[string]bool, error) {
	file, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		return nil, fmt.Errorf("parse config source: %w", err)
	}
	keys := map[string]bool{}
	ast.Inspect(file, func(n ast.Node) bool {
		spec, ok := n.(*ast.TypeSpec)
		if !ok || spec.Name.Name != "Config" {
			return true
		}
		for _, field := range spec.Type.(*ast.StructType).Fields.List {
			if field.Tag == nil {
				continue
			}
			tag, err := strconv.Unquote(field.Tag.Value)
			if err != nil {
				continue
			}
			if key := reflect.StructTag(tag).Get("prop"); key != "" {
				keys[key] = true
			}
		}
		return false
	})
	if len(keys) == 0 {
		return nil, fmt.Errorf("no prop tags in the Config struct of %s", path)
	}
	return keys, nil
}

var (
	buildMu  sync.Mutex
	buildDir string
	built    = map[string]error{} // by command name, once per test binary
)

// Namesrv builds cmd/namesrv once per test binary, static (CGO_ENABLED=0)
// as the container image does, and returns its path.
func Namesrv(t testing.TB) string {
	t.Helper()
	return Binary(t, "namesrv")
}

// Binary builds cmd/NAME once per test binary, static as the container
// image does, and returns its path.
func Binary(t testing.TB, name string) string {
	t.Helper()
	root := Root(t)
	buildMu.Lock()
	defer buildMu.Unlock()
	err, done := built[name]
	if !done {
		err = build(root, name)
		built[name] = err
	}
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(buildDir, name)
}

func build(root, name string) error {
	if buildDir == "" {
		dir, err := os.MkdirTemp("", "deploy-bin-")
		if err != nil {
			return err
		}
		buildDir = dir
	}
	cmd := exec.Command("go", "build", "-o", filepath.Join(buildDir, name), "./cmd/"+name)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("build cmd/%s: %w\n%s", name, err, out)
	}
	return nil
}

// Main is the TestMain of a package that calls Namesrv or Binary: it runs
// the tests, then deletes what they built.
func Main(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

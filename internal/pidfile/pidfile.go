// Package pidfile is the -pidFile PATH flag of cmd/namesrv, cmd/controller
// and cmd/broker: the process writes its pid there at start and removes the
// file at exit, so that deploy/bin/mqshutdown stops exactly that process
// instead of every process of the same name on the host.
package pidfile

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/gonamesrv/gonamesrv/internal/atomicfile"
)

// Flag is the option's name, as the binaries and mqshutdown spell it.
const Flag = "pidFile"

// filePerm: the pid is no secret, and mqshutdown may run as another user of
// the same group (a service account's operators).
const filePerm = 0o644

// FromArgs takes -pidFile PATH (also -pidFile=PATH, --pidFile) out of args:
// the binaries' own config parsers do not know it. The last one given wins,
// as with every other flag. path is "" when none is given.
func FromArgs(args []string) (path string, rest []string, err error) {
	rest = make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		if !strings.HasPrefix(arg, "-") || name != Flag {
			rest = append(rest, arg)
			continue
		}
		if !hasValue {
			if i+1 >= len(args) {
				return "", nil, fmt.Errorf("-%s needs a file path", Flag)
			}
			i++
			value = args[i]
		}
		if value == "" {
			return "", nil, fmt.Errorf("-%s needs a file path, got an empty one", Flag)
		}
		path = value
	}
	return path, rest, nil
}

// Write puts the current process's pid in path (a decimal number and a
// newline) atomically, so that mqshutdown never reads a half-written pid,
// and returns the function that removes it at exit. With path "" it writes
// nothing and the function does nothing.
func Write(path string) (remove func() error, err error) {
	if path == "" {
		return func() error { return nil }, nil
	}
	pid := os.Getpid()
	if err := atomicfile.Write(path, []byte(strconv.Itoa(pid)+"\n"), filePerm); err != nil && !errors.Is(err, atomicfile.ErrNotDurable) {
		return nil, fmt.Errorf("write pid file %s: %w", path, err)
	}
	return func() error { return removeIfOurs(path, pid) }, nil
}

// removeIfOurs deletes path only while it still holds pid: a second process
// started with the same -pidFile has replaced it, and its file must stay.
func removeIfOurs(path string, pid int) error {
	raw, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read pid file %s: %w", path, err)
	}
	if strings.TrimSpace(string(raw)) != strconv.Itoa(pid) {
		return nil
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove pid file %s: %w", path, err)
	}
	return nil
}

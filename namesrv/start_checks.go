package namesrv

import (
	"errors"
	"fmt"
	"net"
	"syscall"

	"github.com/gonamesrv/gonamesrv/internal/atomicfile"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
)

// checkFilesWritable stops the start when the KV file or the config file
// could not be written: found here, the error names the key and the path;
// found at the first PUT_KV_CONFIG or UPDATE_NAMESRV_CONFIG, it would be a
// refused request hours later.
func checkFilesWritable(cfg *config.Config) error {
	for _, file := range []struct{ key, path string }{
		{"kvConfigPath", cfg.KvConfigPath},
		{"configStorePath", cfg.ConfigStorePath},
	} {
		if err := atomicfile.CheckWritable(file.path); err != nil {
			return fmt.Errorf("%s=%s cannot be written (set -data, or the key, to a folder this user can write): %w", file.key, file.path, err)
		}
	}
	return nil
}

// remotingPortTaken is the error to report when the side port could not be
// bound because the remoting port is taken too: the usual case is a second
// NameServer started on the same listenPort, whose side port (listenPort + 4)
// the first one holds as well; naming httpListenPort then sends the operator
// after the wrong port. It is nil when the remoting port is free (or 0).
func remotingPortTaken(cfg *config.Config) error {
	if cfg.ListenPort == 0 {
		return nil
	}
	addr := net.JoinHostPort(cfg.BindAddress, fmt.Sprint(cfg.ListenPort))
	ln, err := net.Listen("tcp", addr)
	if err == nil {
		_ = ln.Close()
		return nil
	}
	if !errors.Is(err, syscall.EADDRINUSE) {
		return nil
	}
	return fmt.Errorf("listenPort=%d cannot be bound (another NameServer on this port?): %w", cfg.ListenPort, err)
}

package testlog

import (
	"bytes"
	"sync"
)

// Buffer is output a test reads while something else writes it (a logger,
// a child process's stdout or stderr): a bytes.Buffer behind a lock.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String is everything written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

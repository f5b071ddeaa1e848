package acl

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"
)

// ReloadInterval is how often the accounts file is read back to notice a
// change (its SHA-256 is compared, so an edit that keeps the size and the
// modification time is still seen); a change is in force within two.
const ReloadInterval = time.Second

// reloadState follows the accounts file.
type reloadState struct {
	mu         sync.Mutex // serialises loads
	lastSum    [sha256.Size]byte
	badSum     [sha256.Size]byte // the last content refused, logged once
	pendingSum [sha256.Size]byte // a changed content seen once, loaded when seen again
	// emptyLogged: an empty file was skipped and logged since the last load.
	emptyLogged bool
	loads       atomic.Uint64
	failures    atomic.Uint64

	stop chan struct{}
	done chan struct{}
}

// Reloads is how many times an accounts file was loaded (the first included).
func (c *Checker) Reloads() uint64 { return c.reloads.loads.Load() }

// ReloadFailures is how many changed accounts files were refused (the
// accounts in force stayed).
func (c *Checker) ReloadFailures() uint64 { return c.reloads.failures.Load() }

// readBounded reads at most MaxFileSize+1 bytes, so ParseAccounts sees a
// file that is too large without it all being read.
func readBounded(path string) ([]byte, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	return io.ReadAll(io.LimitReader(file, MaxFileSize+1))
}

// loadFile reads the file and puts its accounts in force (at start).
func (c *Checker) loadFile() error {
	data, err := readBounded(c.opts.File)
	if err != nil {
		return fmt.Errorf("acl: read accounts file: %w", err)
	}
	return c.loadData(data, sha256.Sum256(data))
}

// loadData puts the accounts of data in force; a bad file is an error and
// changes nothing.
func (c *Checker) loadData(data []byte, sum [sha256.Size]byte) error {
	r := &c.reloads
	r.mu.Lock()
	defer r.mu.Unlock()
	accounts, err := ParseAccounts(data)
	if err != nil {
		return fmt.Errorf("acl: %s: %w", c.opts.File, err)
	}
	c.accounts.Store(accounts)
	r.lastSum, r.badSum, r.emptyLogged = sum, [sha256.Size]byte{}, false
	r.loads.Add(1)
	c.opts.Log.WithFields(logrus.Fields{"file": c.opts.File, "accounts": accounts.Len(),
		"globalWhiteRemoteAddresses": len(accounts.global)}).Info("acl accounts loaded")
	return nil
}

// reload is one poll. A changed content is loaded once two polls in a row
// read it the same, so a file caught half-written by an editor (truncated,
// then written) is never put in force. A refused content is logged and
// counted once, and the accounts in force stay.
func (c *Checker) reload() {
	data, err := readBounded(c.opts.File)
	sum := sha256.Sum256(data)
	r := &c.reloads
	r.mu.Lock()
	if err == nil && sum == r.lastSum {
		r.pendingSum = [sha256.Size]byte{}
		r.mu.Unlock()
		return
	}
	if sum != r.pendingSum {
		r.pendingSum = sum // seen once: wait for the next poll to confirm it
		r.mu.Unlock()
		return
	}
	r.mu.Unlock()
	if err == nil && len(bytes.TrimSpace(data)) == 0 {
		c.skipEmpty()
		return
	}
	if err == nil {
		err = c.loadData(data, sum)
	} else {
		err = fmt.Errorf("acl: read accounts file: %w", err)
	}
	if err == nil {
		return
	}
	r.mu.Lock()
	fresh := sum != r.badSum
	r.badSum = sum
	r.mu.Unlock()
	if fresh {
		r.failures.Add(1)
		c.opts.Log.WithError(err).WithField("file", c.opts.File).
			Error("acl accounts file refused; the accounts loaded before stay in force")
	}
}

// skipEmpty keeps the accounts in force when the file reads empty, as
// Java skips a file without data: a file truncated and not yet written
// again (an editor, a shell redirection that hit a full disk) must not
// take every account away. Logged once until a file loads; not a refused
// file (ReloadFailures), since the next write usually follows.
func (c *Checker) skipEmpty() {
	r := &c.reloads
	r.mu.Lock()
	fresh := !r.emptyLogged
	r.emptyLogged = true
	r.mu.Unlock()
	if fresh {
		c.opts.Log.WithField("file", c.opts.File).
			Warn("acl accounts file is empty: not loaded; the accounts loaded before stay in force")
	}
}

// Watch polls the accounts file every interval (ReloadInterval when 0)
// until Close. Without Enabled it does nothing.
func (c *Checker) Watch(interval time.Duration) {
	if !c.opts.Enabled || c.reloads.stop != nil {
		return
	}
	if interval <= 0 {
		interval = ReloadInterval
	}
	c.reloads.stop, c.reloads.done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(c.reloads.done)
		ticker := time.NewTicker(interval)
		defer ticker.Stop()
		for {
			select {
			case <-c.reloads.stop:
				return
			case <-ticker.C:
				c.reload()
			}
		}
	}()
}

// Close stops Watch and waits for its goroutine.
func (c *Checker) Close() {
	if c.reloads.stop == nil {
		return
	}
	close(c.reloads.stop)
	<-c.reloads.done
}

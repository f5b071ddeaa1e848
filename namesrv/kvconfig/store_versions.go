package kvconfig

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/atomicfile"
)

// Entry is one key as the KV sync between NameServers moves it: its Meta
// and, unless it is a tombstone, its value.
type Entry struct {
	Namespace string `json:"namespace"`
	Key       string `json:"key"`
	Meta
	Value string `json:"value,omitempty"`
}

// VersionsPath is the versions file beside the store's file.
func (s *Store) VersionsPath() string { return s.path + VersionsSuffix }

// Writer is this store's writer id, the tiebreak of its versions.
func (s *Store) Writer() string {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	return s.clock.writer
}

// loadVersions reads the versions file and gives every key of table its
// Meta (reconcile); it returns how many keys got the lowest version. A
// versions file that does not parse is logged and ignored: every key then
// loses to any versioned write elsewhere, which is safe.
func (s *Store) loadVersions(table configTable) int {
	vf, err := readVersionsFile(s.VersionsPath())
	if err != nil {
		s.log.WithError(err).WithField("path", s.VersionsPath()).
			Warn("KV versions file ignored: every key is loaded as of unknown age and a peer's version wins")
		vf = versionsFile{}
	}
	meta, assigned := reconcile(table, vf)
	s.meta = meta
	s.clock = hlc{writer: vf.Writer}
	if s.clock.writer == "" {
		s.clock.writer = newWriterID()
	}
	s.clock.observe(newestVersion(vf))
	return assigned
}

// writeVersions persists s.meta (under writeMu). A failure wraps
// atomicfile.ErrNotDurable: the value is in kvConfig.json already.
func (s *Store) writeVersions() error {
	err := s.write(s.VersionsPath(), encodeVersionsFile(s.clock.writer, s.meta), filePerm)
	if err != nil {
		return fmt.Errorf("%w: KV versions file: %v", atomicfile.ErrNotDurable, err)
	}
	return nil
}

// MetaOf is the Meta of one key, tombstone or not, and whether there is one.
func (s *Store) MetaOf(namespace, key string) (Meta, bool) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	m, ok := s.meta[namespace][key]
	return m, ok
}

// Digest is every key's Meta, tombstones included, sorted by namespace then
// key, with their hash: two stores of equal Digest hash hold the same
// entries.
type Digest struct {
	Entries []Entry // without values
	Hash    string
}

// Digest takes the store's digest.
func (s *Store) Digest() Digest {
	s.writeMu.Lock()
	entries := make([]Entry, 0, len(s.meta))
	for namespace, kv := range s.meta {
		for key, m := range kv {
			entries = append(entries, Entry{Namespace: namespace, Key: key, Meta: m})
		}
	}
	s.writeMu.Unlock()
	slices.SortFunc(entries, func(a, b Entry) int { return CompareKeys(a.Namespace, a.Key, b.Namespace, b.Key) })
	h := sha256.New()
	for _, e := range entries {
		// Lengths first, so no two different lists feed the same bytes.
		fmt.Fprintf(h, "%d:%s%d:%s%d.%d.%d:%s.%t.%s;", len(e.Namespace), e.Namespace, len(e.Key), e.Key,
			e.Millis, e.Counter, len(e.Writer), e.Writer, e.Deleted, e.SHA256)
	}
	return Digest{Entries: entries, Hash: hex.EncodeToString(h.Sum(nil))}
}

// CompareKeys orders keys by namespace, then key.
func CompareKeys(ns1, key1, ns2, key2 string) int {
	if c := strings.Compare(ns1, ns2); c != 0 {
		return c
	}
	return strings.Compare(key1, key2)
}

// Entries returns the entries of keys, with their values, in the order
// given, stopping before the one that would take the values past maxBytes
// (at least one is returned). Keys the store does not know are skipped.
func (s *Store) Entries(keys [][2]string, maxBytes int) []Entry {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	table := *s.table.Load()
	var out []Entry
	size := 0
	for _, k := range keys {
		m, ok := s.meta[k[0]][k[1]]
		if !ok {
			continue
		}
		e := Entry{Namespace: k[0], Key: k[1], Meta: m}
		if !m.Deleted {
			e.Value = table[k[0]][k[1]]
		}
		size += EntryBytes(e)
		if len(out) > 0 && size > maxBytes {
			break
		}
		out = append(out, e)
	}
	return out
}

// EntryBytes estimates an entry's size on the wire (its JSON): what the
// sync's pages are bounded by.
func EntryBytes(e Entry) int {
	return len(e.Namespace) + len(e.Key) + len(e.Value) + len(e.Writer) + len(e.SHA256) + 128
}

// Merge takes entries from a peer: each one newer than this store's (Meta.Newer)
// replaces it, value and version; a tombstone older than TombstoneRetention
// is not taken. A value is checked against the entry limits and its hash is
// computed here, not trusted. Both files are written once, and only when
// something changed; the store limits apply as to a Put (ErrOverLimit:
// nothing is taken). It returns how many entries were taken.
func (s *Store) Merge(entries []Entry) (int, error) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	oldest := s.now().Add(-TombstoneRetention).UnixMilli()
	var take []Entry
	for _, e := range entries {
		if e.Namespace == "" || e.Key == "" {
			continue
		}
		if e.Deleted {
			e.Value, e.SHA256 = "", ""
			if e.Millis < oldest {
				continue
			}
		} else {
			if err := s.limits.checkEntry(e.Namespace, e.Key, e.Value); err != nil {
				return 0, fmt.Errorf("kv config merge %s/%s: %w", e.Namespace, e.Key, err)
			}
			e.SHA256 = valueHash(e.Value)
		}
		if cur, ok := s.meta[e.Namespace][e.Key]; ok && !e.Meta.Newer(cur) {
			continue
		}
		take = append(take, e)
	}
	if len(take) == 0 {
		return 0, nil
	}
	err := s.updateLocked(func(table configTable, meta metaTable) {
		for _, e := range take {
			s.clock.observe(e.Version)
			apply(table, meta, e.Namespace, e.Key, e.Value, e.Meta)
		}
	}, fmt.Sprintf("merge of %d entries", len(take)))
	if err != nil && !errors.Is(err, atomicfile.ErrNotDurable) {
		return 0, err
	}
	s.log.WithFields(logrus.Fields{"entries": len(take)}).Info("kv config entries taken from a peer")
	return len(take), err
}

// PurgeTombstones forgets the tombstones older than TombstoneRetention and
// rewrites the versions file when there were any. It returns how many.
func (s *Store) PurgeTombstones() (int, error) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	oldest := s.now().Add(-TombstoneRetention).UnixMilli()
	next := make(metaTable, len(s.meta))
	purged := 0
	for namespace, kv := range s.meta {
		keep := kv
		for key, m := range kv {
			if m.Deleted && m.Millis < oldest {
				if len(keep) == len(kv) {
					keep = maps.Clone(kv)
				}
				delete(keep, key)
				purged++
			}
		}
		if len(keep) > 0 {
			next[namespace] = keep
		}
	}
	if purged == 0 {
		return 0, nil
	}
	s.meta = next
	return purged, s.writeVersions()
}

package kvconfig

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// VersionsSuffix names the versions file: beside kvConfig.json, at
// `<kvConfigPath>.versions`. kvConfig.json keeps Java's format alone, so a
// Java NameServer (or a downgrade) reads it as ever and ignores this file.
const VersionsSuffix = ".versions"

// TombstoneRetention is how long a delete is remembered (its tombstone) so
// that a peer that still has the key deletes it too instead of giving it
// back. A NameServer down longer than this comes back with keys deleted
// meanwhile and hands them back to its peers: remove its kvConfig.json and
// its versions file before starting it (docs/operations.md).
const TombstoneRetention = 24 * time.Hour

// metaTable is namespace → key → Meta, tombstones included. Like
// configTable, a published one is never modified.
type metaTable map[string]map[string]Meta

// versionsFile is the JSON of the versions file.
type versionsFile struct {
	// Writer is this NameServer's writer id, kept across restarts.
	Writer  string                     `json:"writer"`
	Entries map[string]map[string]Meta `json:"entries"`
}

// readVersionsFile loads path; a missing file is an empty one.
func readVersionsFile(path string) (versionsFile, error) {
	var vf versionsFile
	content, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return vf, nil
	}
	if err != nil {
		return vf, fmt.Errorf("read KV versions file %s: %w", path, err)
	}
	if err := json.Unmarshal(content, &vf); err != nil {
		return vf, fmt.Errorf("%w: versions file %s: %v", ErrCorruptFile, path, err)
	}
	return vf, nil
}

// encodeVersionsFile is the content of the versions file of meta.
func encodeVersionsFile(writer string, meta metaTable) []byte {
	content, _ := json.Marshal(versionsFile{Writer: writer, Entries: meta})
	return content
}

// reconcile gives every key of table its Meta from the versions file when
// the file's entry was written with that very value (same SHA-256). A key
// without one (kvConfig.json written by Java, by a downgraded server, by
// hand, or a crash between the two files' writes) gets the lowest version,
// writer "": any versioned write of that key anywhere wins over it, so a
// value of unknown age never overwrites a newer one on a peer; among
// unversioned values of one key the greater hash wins, the same choice on
// every NameServer. Tombstones of keys absent from the table are kept; the
// file's entries of keys the table no longer holds are dropped (a delete
// that did not finish). assigned counts the keys given the lowest version.
func reconcile(table configTable, vf versionsFile) (meta metaTable, assigned int) {
	meta = metaTable{}
	for namespace, kv := range table {
		m := make(map[string]Meta, len(kv))
		for key, value := range kv {
			hash := valueHash(value)
			if prev, ok := vf.Entries[namespace][key]; ok && !prev.Deleted && prev.SHA256 == hash {
				m[key] = prev
				continue
			}
			m[key] = Meta{SHA256: hash}
			assigned++
		}
		meta[namespace] = m
	}
	for namespace, entries := range vf.Entries {
		for key, prev := range entries {
			if _, present := table[namespace][key]; present || !prev.Deleted {
				continue
			}
			if meta[namespace] == nil {
				meta[namespace] = map[string]Meta{}
			}
			meta[namespace][key] = prev
		}
	}
	return meta, assigned
}

// newestVersion is the greatest version of the file, kept or not: the clock
// starts past it, so no write after a restart reuses a version.
func newestVersion(vf versionsFile) Version {
	var newest Version
	for _, entries := range vf.Entries {
		for _, m := range entries {
			if m.Version.Compare(newest) > 0 {
				newest = m.Version
			}
		}
	}
	return newest
}

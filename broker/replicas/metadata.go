package replicas

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Metadata is the broker's controller identity as Java's BrokerMetadata
// writes it to storePathBrokerIdentity: "cluster#brokerName#brokerId"; the
// temp file (path + "-temp", Java's TempBrokerMetadata) adds
// "#registerCheckCode" while the id is being applied.
type Metadata struct {
	ClusterName       string
	BrokerName        string
	BrokerID          int64
	RegisterCheckCode string // temp file only
}

func (m Metadata) encode() string {
	s := m.ClusterName + "#" + m.BrokerName + "#" + strconv.FormatInt(m.BrokerID, 10)
	if m.RegisterCheckCode != "" {
		s += "#" + m.RegisterCheckCode
	}
	return s
}

// ReadMetadata reads a metadata file; ok is false when it does not exist.
// withCheckCode says it is the temp file, whose fourth field is required.
func ReadMetadata(path string, withCheckCode bool) (m Metadata, ok bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Metadata{}, false, nil
	}
	if err != nil {
		return Metadata{}, false, fmt.Errorf("read %s: %w", path, err)
	}
	fields := strings.Split(strings.TrimSpace(string(data)), "#")
	want := 3
	if withCheckCode {
		want = 4
	}
	if len(fields) < want || fields[0] == "" || fields[1] == "" {
		return Metadata{}, false, fmt.Errorf("%w: %s holds %q, want %d '#'-separated fields", ErrMetadata, path, data, want)
	}
	id, err := strconv.ParseInt(fields[2], 10, 64)
	if err != nil {
		return Metadata{}, false, fmt.Errorf("%w: %s: brokerId %q: %w", ErrMetadata, path, fields[2], err)
	}
	m = Metadata{ClusterName: fields[0], BrokerName: fields[1], BrokerID: id}
	if withCheckCode {
		m.RegisterCheckCode = fields[3]
	}
	return m, true, nil
}

// WriteMetadata replaces the file at path (write to a sibling, then rename,
// so a crash leaves the old file or the new one).
func WriteMetadata(path string, m Metadata) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := path + ".writing"
	if err := os.WriteFile(tmp, []byte(m.encode()), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// removeFile deletes path; a missing file is fine.
func removeFile(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", path, err)
	}
	return nil
}

// fits checks the file belongs to this cluster and brokerName (Java refuses
// to go on otherwise: issue #7704).
func (m Metadata) fits(cluster, name, path string) error {
	if m.ClusterName != cluster || m.BrokerName != name {
		return fmt.Errorf("%w: %s is for %s/%s, the broker is %s/%s; move the file away to register anew",
			ErrMetadata, path, m.ClusterName, m.BrokerName, cluster, name)
	}
	return nil
}

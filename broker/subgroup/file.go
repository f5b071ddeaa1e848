package subgroup

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gonamesrv/gonamesrv/broker/prettyjson"
	"github.com/gonamesrv/gonamesrv/internal/atomicfile"
	"github.com/gonamesrv/gonamesrv/internal/jsonesc"
	"github.com/gonamesrv/gonamesrv/route"
)

// FileName is the name of the table's file under <storePathRootDir>/config,
// as the Java broker names it.
const FileName = "subscriptionGroup.json"

// backupSuffix names the previous version of the file, kept as Java keeps it.
const backupSuffix = ".bak"

// fileMode is the mode the file is written with.
const fileMode = 0o644

// ErrCorruptFile marks a file that is not a subscription group table.
var ErrCorruptFile = errors.New("subgroup: corrupt subscription group file")

// File is subscriptionGroup.json: Java's SubscriptionGroupManager in
// fastjson's pretty format, so either broker reads the other's file.
type File struct{ path string }

// NewFile returns the file at path.
func NewFile(path string) *File { return &File{path: path} }

// FilePath returns <storePathRootDir>/config/subscriptionGroup.json.
func FilePath(storePathRootDir string) string {
	return filepath.Join(storePathRootDir, "config", FileName)
}

// Path returns where the file lives.
func (f *File) Path() string { return f.path }

// Read decodes the file, falling back to its backup when the file is
// missing, empty or corrupt; found is false when neither exists.
func (f *File) Read() (Wrapper, bool, error) {
	return atomicfile.ReadWithBackup(f.path, backupSuffix, readFile)
}

func readFile(path string) (Wrapper, bool, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(data) == 0) {
		return Wrapper{}, false, nil
	}
	if err != nil {
		return Wrapper{}, false, fmt.Errorf("read %s: %w", path, err)
	}
	w, err := DecodeWrapper(data)
	if err != nil {
		return Wrapper{}, false, fmt.Errorf("%w %s: %w", ErrCorruptFile, path, err)
	}
	return w, true, nil
}

// Write replaces the file atomically, the current content kept as the
// backup first (Java's ConfigManager.persist keeps a .bak too).
func (f *File) Write(w Wrapper) error {
	compact, err := EncodeWrapper(w)
	if err != nil {
		return err
	}
	text, err := prettyjson.Indent(compact)
	if err != nil {
		return fmt.Errorf("format subscription groups: %w", err)
	}
	if old, err := os.ReadFile(f.path); err == nil && len(old) > 0 {
		if err := atomicfile.Write(f.path+backupSuffix, old, fileMode); err != nil {
			return fmt.Errorf("back up %s: %w", f.path, err)
		}
	}
	return atomicfile.Write(f.path, text, fileMode)
}

// wrapperJSON is the table as Java writes it: dataVersion, forbiddenTable
// (always empty here: the route-only broker serves no forbidden requests)
// and subscriptionGroupTable, in fastjson's sorted order.
type wrapperJSON struct {
	DataVersion            dataVersionJSON   `json:"dataVersion"`
	ForbiddenTable         map[string]any    `json:"forbiddenTable"`
	SubscriptionGroupTable map[string]Config `json:"subscriptionGroupTable"`
}

// EncodeWrapper writes the compact JSON of GET_ALL_SUBSCRIPTIONGROUP_CONFIG
// (Java SubscriptionGroupManager.encode); group names are sorted where Java
// writes hash order.
func EncodeWrapper(w Wrapper) ([]byte, error) {
	groups := w.Groups
	if groups == nil {
		groups = map[string]Config{}
	}
	return jsonesc.Marshal(wrapperJSON{DataVersion: dataVersionJSON(w.DataVersion), ForbiddenTable: map[string]any{}, SubscriptionGroupTable: groups})
}

// DecodeWrapper reads a GET_ALL_SUBSCRIPTIONGROUP_CONFIG body or the file;
// each group keeps Java's defaults for members it lacks.
func DecodeWrapper(data []byte) (Wrapper, error) {
	var raw struct {
		DataVersion            dataVersionJSON            `json:"dataVersion"`
		SubscriptionGroupTable map[string]json.RawMessage `json:"subscriptionGroupTable"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return Wrapper{}, fmt.Errorf("decode subscription groups: %w", err)
	}
	w := Wrapper{Groups: make(map[string]Config, len(raw.SubscriptionGroupTable)), DataVersion: route.DataVersion(raw.DataVersion)}
	for name, text := range raw.SubscriptionGroupTable {
		c, err := DecodeConfig(text)
		if err != nil {
			return Wrapper{}, fmt.Errorf("group %q: %w", name, err)
		}
		w.Groups[name] = c
	}
	return w, nil
}

// dataVersionJSON is a DataVersion in Java's JSON form.
type dataVersionJSON route.DataVersion

func (v dataVersionJSON) MarshalJSON() ([]byte, error) {
	return route.EncodeDataVersion(nil, route.DataVersion(v)), nil
}

func (v *dataVersionJSON) UnmarshalJSON(b []byte) error {
	d, err := route.DecodeDataVersion(b)
	if err != nil {
		return err
	}
	*v = dataVersionJSON(d)
	return nil
}

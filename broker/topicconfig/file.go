package topicconfig

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gonamesrv/gonamesrv/broker/prettyjson"
	"github.com/gonamesrv/gonamesrv/internal/atomicfile"
	"github.com/gonamesrv/gonamesrv/route"
)

// TopicsFileName is the name of the topic table file under
// <storePathRootDir>/config, as the Java broker names it.
const TopicsFileName = "topics.json"

// backupSuffix names the previous version of the file, kept as Java keeps it so
// a crash between the two renames still leaves a readable table.
const backupSuffix = ".bak"

// File is topics.json: a TopicConfigSerializeWrapper in fastjson's pretty
// format, the file a Java broker writes, so either broker can read the other's.
type File struct {
	path string
}

// NewFile returns the topics file at path.
func NewFile(path string) *File { return &File{path: path} }

// TopicsFilePath returns <storePathRootDir>/config/topics.json.
func TopicsFilePath(storePathRootDir string) string {
	return filepath.Join(storePathRootDir, "config", TopicsFileName)
}

// Path returns where the file lives.
func (f *File) Path() string { return f.path }

// Read decodes the file, falling back to its backup when the file is missing,
// empty or corrupt (Java ConfigManager.load). found is false when neither exists.
func (f *File) Read() (wrapper route.TopicConfigSerializeWrapper, found bool, err error) {
	return atomicfile.ReadWithBackup(f.path, backupSuffix, readWrapper)
}

func readWrapper(path string) (route.TopicConfigSerializeWrapper, bool, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(data) == 0) {
		return route.TopicConfigSerializeWrapper{}, false, nil
	}
	if err != nil {
		return route.TopicConfigSerializeWrapper{}, false, fmt.Errorf("read %s: %w", path, err)
	}
	wrapper, err := route.DecodeTopicConfigSerializeWrapper(data)
	if err != nil {
		return route.TopicConfigSerializeWrapper{}, false, fmt.Errorf("%w %s: %w", ErrTopicconfigCorruptFile, path, err)
	}
	return *wrapper, true, nil
}

// Write replaces the file atomically: the new text goes to a temporary file
// that is synced, the current file becomes the backup, and the temporary file
// is renamed into place.
func (f *File) Write(wrapper route.TopicConfigSerializeWrapper) error {
	text, err := Encode(wrapper)
	if err != nil {
		return err
	}
	dir := filepath.Dir(f.path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, TopicsFileName+".tmp*")
	if err != nil {
		return fmt.Errorf("create temporary file in %s: %w", dir, err)
	}
	defer os.Remove(tmp.Name()) // no-op after the rename
	if _, err := tmp.Write(text); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", tmp.Name(), err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("sync %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("close %s: %w", tmp.Name(), err)
	}
	if err := os.Rename(f.path, f.path+backupSuffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("back up %s: %w", f.path, err)
	}
	if err := os.Rename(tmp.Name(), f.path); err != nil {
		return fmt.Errorf("install %s: %w", f.path, err)
	}
	return syncDir(dir)
}

// Encode returns the file text of a topic table: the wrapper's fastjson form,
// pretty-printed as Java's TopicConfigManager.encode(true) writes it.
func Encode(wrapper route.TopicConfigSerializeWrapper) ([]byte, error) {
	compact := route.EncodeTopicConfigSerializeWrapper(nil, &wrapper)
	text, err := prettyjson.Indent(compact)
	if err != nil {
		return nil, fmt.Errorf("format topics: %w", err)
	}
	return text, nil
}

// syncDir makes the renames durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("open %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}

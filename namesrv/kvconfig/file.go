package kvconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// filePerm is the mode of the KV file (readable by operators, as Java's).
const filePerm = 0o644

// configFile is the JSON shape of the Java KVConfigSerializeWrapper. Pointers
// let a null namespace or value be told from an empty one: Java never writes
// nulls, and one read from a hand-edited file is skipped as Java would.
type configFile struct {
	ConfigTable map[string]map[string]*string `json:"configTable"`
}

// readConfigFile loads the table stored at path. A missing file is an empty
// table; so is an empty or `null` file, which Java also loads as nothing.
func readConfigFile(path string) (configTable, error) {
	content, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return configTable{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read KV config file %s: %w", path, err)
	}
	return decodeConfigFile(content)
}

// decodeConfigFile parses the Java file format into a table.
func decodeConfigFile(content []byte) (configTable, error) {
	table := configTable{}
	if len(bytes.TrimSpace(content)) == 0 {
		return table, nil
	}
	var wrapper configFile
	if err := json.Unmarshal(content, &wrapper); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorruptFile, err)
	}
	for namespace, entries := range wrapper.ConfigTable {
		if entries == nil {
			continue
		}
		kv := make(map[string]string, len(entries))
		for key, value := range entries {
			if value != nil {
				kv[key] = *value
			}
		}
		table[namespace] = kv
	}
	return table, nil
}

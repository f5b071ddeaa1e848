package javaprops

import (
	"fmt"
	"os"
)

// ReadFile reads and parses a properties file (a -c config file); the errors
// name the file.
func ReadFile(path string) (map[string]string, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load config file: %w", err)
	}
	props, err := Parse(text)
	if err != nil {
		return nil, fmt.Errorf("load config file %s: %w", path, err)
	}
	return props, nil
}

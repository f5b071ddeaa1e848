// Package javafixture reads the exchanges recorded from the Java NameServer
// 5.3.3 (shared/fixtures/java-5.3.3, copied into each package's testdata), so
// every package's tests load them the same way and rebuild the same frames.
// The file format is described in that directory's README.md.
package javafixture

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Exchange is one recorded request and the Java server's answer to it: one
// file of the corpus, named after Name.
type Exchange struct {
	// Name is "NNN-short-name", also the file name without ".json".
	Name string `json:"name"`
	// Description says what the exchange shows.
	Description string `json:"description"`
	// Request is exactly what was sent.
	Request Request `json:"request"`
	// Response is what came back; nil for the one-way request.
	Response *Response `json:"response"`
	// Volatile lists "path - why" entries whose values depend on the installation.
	Volatile []string `json:"volatile"`
	// Unordered lists "path - why" entries written in Java hash order.
	Unordered []string `json:"unordered"`
	// BodyFormat is "json", "properties" or "bytes"; empty without a response body.
	BodyFormat string `json:"bodyFormat"`
	// WaitAfterMs is the pause the replay takes after this exchange (0 = none).
	WaitAfterMs int `json:"waitAfterMs"`
}

// Request is the recorded request. Header is JSON text for the JSON
// serialization and the hex of the binary header for ROCKETMQ.
type Request struct {
	Code          int32  `json:"code"`
	CodeName      string `json:"codeName"`
	Oneway        bool   `json:"oneway"`
	Header        string `json:"header"`
	SerializeType string `json:"serializeType"`
	// BodyText is the body when it is printable UTF-8; nil otherwise.
	BodyText *string `json:"bodyText"`
	// BodyHex is the body in hex when it is not printable; nil otherwise.
	BodyHex *string `json:"bodyHex"`
}

// Response is the recorded answer: the whole frame, plus its header decoded
// and its body for convenience.
type Response struct {
	// FrameHex is the entire frame as received, length prefix included.
	FrameHex string `json:"frameHex"`
	// Header is the response header as a JSON object.
	Header json.RawMessage `json:"header"`
	// BodyText is the body when it is printable UTF-8; nil otherwise.
	BodyText *string `json:"bodyText"`
	// BodyHex is the body in hex; nil when there is no body.
	BodyHex *string `json:"bodyHex"`
}

// Load reads the one file of dir named prefix-*.json (prefix is usually the
// three-digit number of the exchange). No match and several matches are errors.
func Load(dir, prefix string) (*Exchange, error) {
	pattern := filepath.Join(dir, prefix+"-*.json")
	matches, err := filepath.Glob(pattern)
	if err != nil {
		return nil, fmt.Errorf("load fixture %s: %w", pattern, err)
	}
	switch len(matches) {
	case 0:
		return nil, fmt.Errorf("load fixture %s: %w", pattern, ErrNotFound)
	case 1:
		return readExchange(matches[0])
	default:
		return nil, fmt.Errorf("load fixture %s: %d files %v: %w", pattern, len(matches), matches, ErrAmbiguous)
	}
}

// LoadAll reads every exchange file of dir (names starting with a digit, so a
// README beside them is skipped), in name order, which is the replay order.
func LoadAll(dir string) ([]*Exchange, error) {
	files, err := filepath.Glob(filepath.Join(dir, "[0-9]*.json"))
	if err != nil {
		return nil, fmt.Errorf("load fixtures of %s: %w", dir, err)
	}
	sort.Strings(files)
	exchanges := make([]*Exchange, 0, len(files))
	for _, file := range files {
		exchange, err := readExchange(file)
		if err != nil {
			return nil, err
		}
		exchanges = append(exchanges, exchange)
	}
	return exchanges, nil
}

func readExchange(file string) (*Exchange, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("read fixture: %w", err)
	}
	var exchange Exchange
	if err := json.Unmarshal(raw, &exchange); err != nil {
		return nil, fmt.Errorf("parse fixture %s: %w", file, err)
	}
	return &exchange, nil
}

// Paths returns the path part of "path - why" entries (Volatile, Unordered),
// the part a comparison matches against.
func Paths(entries []string) []string {
	paths := make([]string, len(entries))
	for i, entry := range entries {
		paths[i], _, _ = strings.Cut(entry, " - ")
	}
	return paths
}

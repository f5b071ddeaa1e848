package remoting

import (
	"fmt"
	"strconv"
)

// SerializeType says how a frame's header is encoded; it is the high byte
// of the header-length word (protocol.md 1.2).
type SerializeType byte

// The two header serializations of RocketMQ.
const (
	// JSON headers are fastjson-compatible text (protocol.md 1.5).
	JSON SerializeType = 0
	// ROCKETMQ headers are the compact binary layout (protocol.md 1.6).
	ROCKETMQ SerializeType = 1
)

// String returns the Java enum name, as written in serializeTypeCurrentRPC.
func (t SerializeType) String() string {
	switch t {
	case JSON:
		return "JSON"
	case ROCKETMQ:
		return "ROCKETMQ"
	default:
		return "SerializeType(" + strconv.Itoa(int(t)) + ")"
	}
}

// LanguageCode identifies the language of the peer that built a command
// (protocol.md 1.10). Values 0..13 are named; LanguageUnknown stands for the
// Java null an unknown name or byte decodes to.
type LanguageCode byte

// Language codes with their Java names and binary values.
//
//nolint:revive,stylecheck // Java names on purpose.
const (
	JAVA    LanguageCode = 0
	CPP     LanguageCode = 1
	DOTNET  LanguageCode = 2
	PYTHON  LanguageCode = 3
	DELPHI  LanguageCode = 4
	ERLANG  LanguageCode = 5
	RUBY    LanguageCode = 6
	OTHER   LanguageCode = 7
	HTTP    LanguageCode = 8
	GO      LanguageCode = 9
	PHP     LanguageCode = 10
	OMS     LanguageCode = 11
	RUST    LanguageCode = 12
	NODE_JS LanguageCode = 13
	// LanguageUnknown is "no language": a JSON header omits the key, a
	// binary header carries 0xFF, which decodes back to LanguageUnknown.
	LanguageUnknown LanguageCode = 0xFF
)

// languageNames is indexed by the binary code.
var languageNames = [...]string{
	"JAVA", "CPP", "DOTNET", "PYTHON", "DELPHI", "ERLANG", "RUBY",
	"OTHER", "HTTP", "GO", "PHP", "OMS", "RUST", "NODE_JS",
}

// Known reports whether l is one of the named languages of table 1.10.
func (l LanguageCode) Known() bool { return int(l) < len(languageNames) }

// String returns the JSON name of the language ("JAVA", "GO", ...), or ""
// for LanguageUnknown and other unnamed values.
func (l LanguageCode) String() string {
	if l.Known() {
		return languageNames[l]
	}
	return ""
}

// languageFromCode maps a binary or numeric code to a LanguageCode; values
// outside table 1.10 become LanguageUnknown, as Java decodes them to null.
func languageFromCode(code int64) LanguageCode {
	if code >= 0 && code < int64(len(languageNames)) {
		return LanguageCode(code)
	}
	return LanguageUnknown
}

// languageFromName maps a JSON enum name to a LanguageCode (exact match, as
// Java enum lookup is case-sensitive); unknown names give LanguageUnknown.
func languageFromName(name []byte) LanguageCode {
	for i, known := range languageNames {
		if string(name) == known {
			return LanguageCode(i)
		}
	}
	return LanguageUnknown
}

// ParseLanguageCode accepts a name ("GO") or a decimal number ("9") and
// returns the language, or an error when neither matches table 1.10.
func ParseLanguageCode(text string) (LanguageCode, error) {
	if lang := languageFromName([]byte(text)); lang != LanguageUnknown {
		return lang, nil
	}
	if n, err := strconv.ParseInt(text, 10, 64); err == nil {
		if lang := languageFromCode(n); lang != LanguageUnknown {
			return lang, nil
		}
	}
	return LanguageUnknown, fmt.Errorf("parse language code %q: not in the LanguageCode table", text)
}

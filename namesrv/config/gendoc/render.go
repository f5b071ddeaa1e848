package main

import (
	_ "embed"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/gonamesrv/gonamesrv/namesrv/config"
)

// header and footer are the hand-written prose of the page (the command
// line, how settings change, what GET_NAMESRV_CONFIG lists); the key table
// between them is generated.
var (
	//go:embed header.md
	header string
	//go:embed footer.md
	footer string
)

// environmentDefaults are the defaults that depend on the host, shown as
// what they are rather than as this host's values (the page must not change
// with the machine it is generated on).
var environmentDefaults = map[string]string{
	"rocketmqHome": "`$ROCKETMQ_HOME`, else the home folder",
}

// Render is the whole page.
func Render() string {
	var b strings.Builder
	b.WriteString(header)
	b.WriteString("| key | default | range | changes | from | meaning |\n| --- | --- | --- | --- | --- | --- |\n")
	defaults := config.Default()
	for _, key := range config.Keys() {
		value, _ := defaults.Value(key)
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s |\n", key, shownDefault(key, value), valueRange(key),
			changes(key), from(key), cell(config.Description(key)))
	}
	b.WriteString(footer)
	return b.String()
}

// shownDefault is a key's default as the page shows it: the home folder as
// `~`, an empty value said in words.
func shownDefault(key, value string) string {
	if shown, ok := environmentDefaults[key]; ok {
		return shown
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" && strings.HasPrefix(value, home+"/") {
		value = "~" + strings.TrimPrefix(value, home)
	}
	if value == "" {
		return "(empty)"
	}
	return "`" + cell(value) + "`"
}

// valueRange is what a key accepts: its bounds, its words, or booleans.
func valueRange(key string) string {
	if lo, hi, ok := config.Bounds(key); ok {
		return group(lo) + " – " + group(hi)
	}
	if words := config.Choices(key); words != nil {
		return "`" + strings.Join(words, "`, `") + "`"
	}
	if value, _ := config.Default().Value(key); value == "true" || value == "false" {
		return "`true`, `false`"
	}
	return "text"
}

// changes says how a key may change on a running server.
func changes(key string) string {
	switch {
	case config.IsBlackListedByDefault(key):
		return "black-listed"
	case config.IsProtected(key):
		return "protected"
	case config.IsLive(key):
		return "live"
	default:
		return "restart"
	}
}

// javaElsewhere are the Go additions to NamesrvConfig and NettyServerConfig
// that Java has under the same name elsewhere: its TLS settings (tls.*,
// TlsSystemConfig) and the frame limit (a JVM property).
var javaElsewhere = map[string]string{
	"tls.":           "Java (TLS setting)",
	"frameMaxLength": "Java (JVM property)",
}

// from says where a key comes from: Java's config classes, another Java
// setting of that name, or a Go addition.
func from(key string) string {
	if !config.IsExtension(key) {
		return "Java"
	}
	for name, origin := range javaElsewhere {
		if key == name || (strings.HasSuffix(name, ".") && strings.HasPrefix(key, name)) {
			return origin
		}
	}
	return "Go"
}

// group writes n with thousands separators, as the rest of the docs do.
func group(n int64) string {
	digits := strconv.FormatInt(n, 10)
	sign := ""
	if n < 0 {
		sign, digits = "-", digits[1:]
	}
	var b strings.Builder
	for i, d := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(d)
	}
	return sign + b.String()
}

// cell keeps a table cell on its row: a `|` would end it.
func cell(s string) string {
	return strings.ReplaceAll(s, "|", `\|`)
}

package main

import (
	"fmt"
	"sort"
	"strings"
)

// option is one command-line option, as Java's commons-cli Option describes it.
type option struct {
	short, long string
	hasArg      bool
	required    bool
	desc        string
}

// commonOptions are accepted by every command (Java ServerUtil.buildCommandlineOptions),
// plus -json, our machine-readable output switch for read commands.
var commonOptions = []option{
	{short: "h", long: "help", desc: "Print help"},
	{short: "n", long: "namesrvAddr", hasArg: true, desc: "Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'"},
}

var jsonOption = option{short: "json", long: "json", desc: "print the result as JSON (for scripts)"}

// parsedArgs holds the options found on a command line.
type parsedArgs struct {
	values map[string]string // by short name; "" for options without argument
}

func (p parsedArgs) has(short string) bool { _, ok := p.values[short]; return ok }

func (p parsedArgs) get(short string) string { return strings.TrimSpace(p.values[short]) }

// parseArgs reads `-x value`, `--long value`, `-x=value` and bare flags.
func parseArgs(args []string, opts []option) (parsedArgs, error) {
	parsed := parsedArgs{values: map[string]string{}}
	find := func(name string) (option, bool) {
		for _, o := range opts {
			if o.short == name || o.long == name {
				return o, true
			}
		}
		return option{}, false
	}
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if !strings.HasPrefix(arg, "-") || arg == "-" {
			return parsed, fmt.Errorf("Unrecognized argument: %s", arg)
		}
		name := strings.TrimLeft(arg, "-")
		value, hasInline := "", false
		if k, v, ok := strings.Cut(name, "="); ok {
			name, value, hasInline = k, v, true
		}
		o, ok := find(name)
		if !ok {
			return parsed, fmt.Errorf("Unrecognized option: %s", arg)
		}
		if o.hasArg && !hasInline {
			if i+1 >= len(args) {
				return parsed, fmt.Errorf("Missing argument for option: %s", o.short)
			}
			i++
			value = args[i]
		}
		parsed.values[o.short] = value
	}
	if parsed.has("h") {
		return parsed, nil
	}
	var missing []string
	for _, o := range opts {
		if o.required && !parsed.has(o.short) {
			missing = append(missing, o.short)
		}
	}
	if len(missing) > 0 {
		return parsed, fmt.Errorf("Missing required option%s: %s", plural(len(missing)), strings.Join(missing, ", "))
	}
	return parsed, nil
}

func plural(n int) string {
	if n > 1 {
		return "s"
	}
	return ""
}

// usage renders `mqadmin help <command>` like commons-cli's HelpFormatter:
// a usage line with the options sorted by name, then one aligned line per option.
func usage(name string, opts []option) string {
	sorted := append([]option(nil), opts...)
	sort.Slice(sorted, func(i, j int) bool { return strings.ToLower(sorted[i].short) < strings.ToLower(sorted[j].short) })
	var b strings.Builder
	b.WriteString("usage: mqadmin " + name)
	for _, o := range sorted {
		token := "-" + o.short
		if o.hasArg {
			token += " <arg>"
		}
		if !o.required {
			token = "[" + token + "]"
		}
		b.WriteString(" " + token)
	}
	b.WriteString("\n")
	lefts := make([]string, len(sorted))
	width := 0
	for i, o := range sorted {
		lefts[i] = " -" + o.short + ",--" + o.long
		if o.hasArg {
			lefts[i] += " <arg>"
		}
		width = max(width, len(lefts[i]))
	}
	for i, o := range sorted {
		fmt.Fprintf(&b, "%-*s   %s\n", width, lefts[i], o.desc)
	}
	return b.String()
}

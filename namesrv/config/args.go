package config

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/gonamesrv/gonamesrv/internal/javaprops"
)

// File names under the -data directory.
const (
	kvConfigFileName = "kvConfig.json"
	configFileName   = "namesrv.properties"
)

// flagAliases map the Go-style flags to the key they set.
var flagAliases = map[string]string{
	"port":       "listenPort",
	"log-format": "logFormat",
	"log-level":  "logLevel",
}

// assignment is one key=value taken from the command line, applied after the
// -c file so flags override it whatever their position.
type assignment struct{ key, value string }

// commandLine collects what the flags ask for.
type commandLine struct {
	configFile  string
	printConfig bool
	help        bool
	assignments []assignment
}

// keyFlag is a flag.Value that records a setting assignment.
type keyFlag struct {
	key     string
	isBool  bool
	applied *[]assignment
}

func (f *keyFlag) String() string   { return "" }
func (f *keyFlag) IsBoolFlag() bool { return f.isBool }
func (f *keyFlag) Set(value string) error {
	*f.applied = append(*f.applied, assignment{f.key, value})
	return nil
}

// dataFlag expands -data DIR into the two file-path settings.
type dataFlag struct{ applied *[]assignment }

func (f *dataFlag) String() string { return "" }
func (f *dataFlag) Set(dir string) error {
	*f.applied = append(*f.applied,
		assignment{"kvConfigPath", filepath.Join(dir, kvConfigFileName)},
		assignment{"configStorePath", filepath.Join(dir, configFileName)})
	return nil
}

// newFlagSet declares the mqnamesrv options (protocol.md 6.4), our own and
// one flag per setting key.
func newFlagSet(cl *commandLine) *flag.FlagSet {
	fs := flag.NewFlagSet("namesrv", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	for _, name := range []string{"c", "configFile"} {
		fs.StringVar(&cl.configFile, name, "", "load this Java properties file; updates are written back to it")
	}
	for _, name := range []string{"p", "printConfigItem"} {
		fs.BoolVar(&cl.printConfig, name, false, "print the effective settings as key=value lines and exit")
	}
	for _, name := range []string{"h", "help"} {
		fs.BoolVar(&cl.help, name, false, "print this help and exit")
	}
	var ignored string
	for _, name := range []string{"n", "namesrvAddr"} {
		fs.StringVar(&ignored, name, "", "accepted for compatibility; no effect on a NameServer")
	}
	fs.Var(&dataFlag{&cl.assignments}, "data", "directory for kvConfig.json and namesrv.properties")
	for alias, key := range flagAliases {
		fs.Var(&keyFlag{key: key, applied: &cl.assignments}, alias, "same as -"+key)
	}
	for _, s := range settings {
		fs.Var(&keyFlag{key: s.Key, isBool: s.Kind == reflect.Bool, applied: &cl.assignments}, s.Key, "setting "+s.Key)
	}
	return fs
}

// FromArgs builds the configuration from the command line (without the
// program name): Java defaults, then the -c properties file (unknown keys kept
// for GET_NAMESRV_CONFIG and reported by UnknownKeys; a value that does not
// parse is an error naming the file, line, key and value, where Java ignores
// it; configStorePath becomes the file's path), then the flags in order: -data DIR,
// -listenPort/-port, -bindAddress, -log-format, -log-level and `-key value` /
// `-key=value` for any setting by its Java key (booleans: `-key` or
// `-key=false`). -n is accepted and ignored.
//
// With -p the effective settings are printed to stdout as key=value lines;
// with -h the usage is. Both return printOnly=true: the caller exits 0.
// A flag value that does not convert, an unknown flag or a setting Validate
// rejects is an error.
func FromArgs(args []string, stdout io.Writer) (cfg *Config, printOnly bool, err error) {
	var cl commandLine
	fs := newFlagSet(&cl)
	if err := fs.Parse(args); err != nil {
		return nil, false, fmt.Errorf("command line: %w", err)
	}
	if cl.help {
		Usage(stdout)
		return Default(), true, nil
	}
	if fs.NArg() > 0 {
		return nil, false, fmt.Errorf("command line: unexpected argument %q (boolean settings take -key=value)", fs.Arg(0))
	}
	cfg = Default()
	if cl.configFile != "" {
		if err := cfg.loadFile(cl.configFile); err != nil {
			return nil, false, err
		}
	}
	_, httpPortGiven := cfg.fileProperties["httpListenPort"]
	for _, a := range cl.assignments {
		if err := cfg.setStrict(a.key, a.value); err != nil {
			return nil, false, fmt.Errorf("command line: %w", &javaprops.ValueError{Key: a.key, Value: a.value, Err: err})
		}
		httpPortGiven = httpPortGiven || a.key == "httpListenPort"
		cfg.markCommandLine(a.key)
	}
	cfg.followListenPort(httpPortGiven)
	cfg.filterUnknownKeys()
	if err := cfg.Validate(); err != nil {
		return nil, false, err
	}
	if cl.printConfig {
		if err := cfg.print(stdout); err != nil {
			return nil, false, fmt.Errorf("print config: %w", err)
		}
		return cfg, true, nil
	}
	return cfg, false, nil
}

// loadFile applies a properties file strictly (javaprops.FileLoader) and remembers it both
// as the source of extra GET_NAMESRV_CONFIG entries and as configStorePath.
func (c *Config) loadFile(path string) error {
	props, unknown, err := fields.FileLoader(c).Load(path)
	if err != nil {
		return err
	}
	c.fileProperties, c.unknownKeys = props, unknown
	c.ConfigStorePath, c.loadedFrom = path, path
	return nil
}

// print writes every setting as key=value in declaration order (-p), then
// the -c file's unknown keys as a comment block.
func (c *Config) print(w io.Writer) error {
	var b strings.Builder
	for _, s := range settings {
		b.WriteString(s.Key)
		b.WriteByte('=')
		b.WriteString(c.format(s))
		b.WriteByte('\n')
	}
	b.Write(javaprops.UnknownComment(c.loadedFrom, c.unknownKeys))
	_, err := io.WriteString(w, b.String())
	return err
}

// Usage writes the command-line help.
func Usage(w io.Writer) {
	fmt.Fprint(w, `usage: namesrv [options]
  -c, -configFile FILE     load a Java properties file (NameServer and Netty keys);
                           UPDATE_NAMESRV_CONFIG writes the settings back to it
  -p, -printConfigItem     print the effective settings as key=value and exit
  -h, -help                print this help and exit
  -n, -namesrvAddr ADDR    accepted for compatibility, no effect
  -data DIR                put kvConfig.json and namesrv.properties under DIR
  -pidFile PATH            write the pid there at start, removed at exit (mqshutdown)
  -listenPort, -port N     listen port (default 9876)
  -httpListenPort N        HTTP side port (default listenPort + 4: 9880 for 9876; 0 free, -1 off)
  -bindAddress ADDR        listen address (default 0.0.0.0)
  -log-format text|json    log output format (default text)
  -log-level LEVEL         debug, info, warn, error (default info)
  -KEY VALUE, -KEY=VALUE   any setting by its Java key, e.g. -scanNotActiveBrokerInterval 1000;
                           booleans as -KEY or -KEY=false
Flags override the -c file whatever their order.
`)
}

package config

import (
	"flag"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/gonamesrv/gonamesrv/internal/javaprops"
)

// FromArgs builds the configuration from the command line (without the
// program name), as mqcontroller: defaults, then the -c properties file
// (strict values, unknown keys reported: loadFile), then `-key value` / `-key=value` for any
// key, -log-format and -log-level. With -p the settings are printed as
// key=value lines, with -h the usage; both return printOnly=true.
func FromArgs(args []string, stdout io.Writer) (cfg *Config, printOnly bool, err error) {
	var file string
	var printConfig, help bool
	type assignment struct{ key, value string }
	var assignments []assignment
	fs := flag.NewFlagSet("controller", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	for _, name := range []string{"c", "configFile"} {
		fs.StringVar(&file, name, "", "")
	}
	for _, name := range []string{"p", "printConfigItem"} {
		fs.BoolVar(&printConfig, name, false, "")
	}
	for _, name := range []string{"h", "help"} {
		fs.BoolVar(&help, name, false, "")
	}
	alias := map[string]string{"log-format": "logFormat", "log-level": "logLevel"}
	for _, s := range settings {
		alias[s.Key] = s.Key
	}
	for name, key := range alias {
		field, _ := fields.Lookup(key)
		isBool := field.Kind == reflect.Bool
		fs.Var(&keyFlag{isBool: isBool, set: func(v string) { assignments = append(assignments, assignment{key, v}) }}, name, "")
	}
	if err := fs.Parse(args); err != nil {
		return nil, false, fmt.Errorf("command line: %w", err)
	}
	if help {
		Usage(stdout)
		return Default(), true, nil
	}
	if fs.NArg() > 0 {
		return nil, false, fmt.Errorf("command line: unexpected argument %q (boolean settings take -key=value)", fs.Arg(0))
	}
	cfg = Default()
	if file != "" {
		if err := cfg.loadFile(file); err != nil {
			return nil, false, err
		}
	}
	// The flags apply before the stored file (they may name
	// configStorePath) and again after it: they win.
	for pass := range 2 {
		for _, a := range assignments {
			if err := fields.SetStrict(cfg, a.key, a.value); err != nil {
				return nil, false, fmt.Errorf("command line: %w", &javaprops.ValueError{Key: a.key, Value: a.value, Err: err})
			}
		}
		if pass == 0 {
			cfg.resolveStorePath()
			if _, err := cfg.loadStored(); err != nil {
				return nil, false, err
			}
		}
	}
	if err := cfg.Validate(); err != nil {
		return nil, false, err
	}
	if printConfig {
		_, err := stdout.Write(append(cfg.Properties(), javaprops.UnknownComment(cfg.configFile, cfg.unknownKeys)...))
		return cfg, true, err
	}
	return cfg, false, nil
}

// loadFile applies a properties file strictly (javaprops.FileLoader): a
// value that does not parse is an error naming the file, line, key and value
// (Java ignores it); keys no setting has are kept for UnknownKeys.
func (c *Config) loadFile(path string) error {
	_, unknown, err := fields.FileLoader(c).Load(path)
	if err != nil {
		return err
	}
	c.unknownKeys, c.configFile = unknown, path
	return nil
}

// UnknownKeys are the -c file's keys no setting has, in file order, each
// with the closest known key: cmd/controller warns of them at start and -p
// lists them.
func (c *Config) UnknownKeys() []javaprops.UnknownKey { return slices.Clone(c.unknownKeys) }

// ConfigFile is the -c file, "" without one.
func (c *Config) ConfigFile() string { return c.configFile }

// Properties is every setting but the secrets as key=value lines in
// declaration order (-p, and GET_CONTROLLER_CONFIG's body).
func (c *Config) Properties() []byte {
	var b strings.Builder
	for _, s := range settings {
		if IsSecret(s.Key) {
			continue
		}
		v, _ := c.Value(s.Key)
		b.WriteString(s.Key + "=" + v + "\n")
	}
	return []byte(b.String())
}

// keyFlag records one -key assignment, applied after the -c file.
type keyFlag struct {
	isBool bool
	set    func(string)
}

func (f *keyFlag) String() string   { return "" }
func (f *keyFlag) IsBoolFlag() bool { return f.isBool }
func (f *keyFlag) Set(v string) error {
	f.set(v)
	return nil
}

// Usage writes the command-line help.
func Usage(w io.Writer) {
	fmt.Fprint(w, `usage: controller [options]
  -c, -configFile FILE     load a Java properties file (controller.conf: ControllerConfig keys)
  -p, -printConfigItem     print the effective settings as key=value and exit
  -h, -help                print this help and exit
  -pidFile PATH            write the pid there at start, removed at exit (mqshutdown)
  -log-format text|json    log output format (default text)
  -log-level LEVEL         debug, info, warn, error (default info)
  -KEY VALUE, -KEY=VALUE   any setting by its key, e.g. -controllerDLegerSelfId n1;
                           booleans as -KEY or -KEY=false
Flags override the -c file whatever their order. See controller/config/README.md.
`)
}

// FromFile reads the controller settings of a properties file shared with
// another program (the NameServer's -c file with enableControllerInNamesrv):
// the keys it does not know are left to that program (which reports them),
// the values of the keys it knows must parse, and the rest is validated.
// The file's configStorePath is the NameServer's: the embedded controller's
// own settings file is its default, beside its store (store_path.go).
func FromFile(path string) (*Config, error) {
	cfg := Default()
	loader := fields.FileLoader(cfg)
	known := loader.Known
	loader.Known = func(key string) bool { return key != "configStorePath" && known(key) }
	if _, _, err := loader.Load(path); err != nil {
		return nil, err
	}
	cfg.resolveStorePath()
	if _, err := cfg.loadStored(); err != nil {
		return nil, err
	}
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("controller settings in %s: %w", path, err)
	}
	return cfg, nil
}

package main

// A command's settings come from four places, each over the next: its
// command line, SORTKEY_* environment variables, the file of --config,
// and the flags' defaults. They are layered over the flag set itself, so
// every flag, whoever adds it, can be set all three ways with the same
// parsing; the checks after parsing see the result, wherever a value
// came from. A flag's Value must be a plain setter (flag's own types
// are): the command line is parsed twice, once to find --config and once
// to win over the environment and the file.

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"go.yaml.in/yaml/v3"
)

// envPrefix starts the environment variable of every flag: --data-dir is
// SORTKEY_DATA_DIR.
const envPrefix = "SORTKEY_"

// configFlag names the flag that names the config file.
const configFlag = "config"

// The refusals of bad settings.
const (
	msgUnexpectedArg = "unexpected argument %q: %s takes only flags"
	msgBadFlags      = "run \"sortkey %s -h\" for its flags"
	msgEnvValue      = "environment variable %s=%q: %v"
	msgConfigRead    = "--config: %w"
	msgConfigShape   = "%s: a config file is a mapping of flag names to values, such as \"in-memory: true\""
	msgConfigKey     = "%s:%d: unknown key %q: sortkey %s has no --%[3]s flag"
	msgConfigNested  = "%s:%d: key %q: a flag takes one value, not a list or mapping"
	msgConfigTwice   = "%s:%d: key %q is given twice"
	msgConfigSelf    = "%s:%d: key %q: a config file cannot name another"
	msgConfigNull    = "%s:%d: key %q has no value"
	msgConfigValue   = "%s:%d: key %q: bad value %q: %v"
)

// settingsFooter ends the -h of a command whose flags are layered.
const settingsFooter = `
Every flag can also be set by an environment variable, SORTKEY_ and the
flag's name in capitals with _ for - (SORTKEY_DATA_DIR=/data for
--data-dir), or by a key of the YAML or JSON file of --config (or
SORTKEY_CONFIG), such as "data-dir: /data". The command line wins over the
environment, and the environment over the file. An empty variable counts
as unset.
`

// envName is the environment variable of the flag name.
func envName(name string) string {
	return envPrefix + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
}

// parseLayered parses args into fs over the environment and, when fs has
// --config and one is named, the config file. Errors are written to fs's
// output; -h writes nothing and returns flag.ErrHelp (see exitUsage).
func parseLayered(fs *flag.FlagSet, args []string) error {
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	err := applyConfigFile(fs, configPath(fs))
	if err == nil {
		err = applyEnv(fs)
	}
	if err != nil {
		fmt.Fprintf(fs.Output(), "sortkey %s: %v\n", fs.Name(), err)
		return err
	}
	return fs.Parse(args)
}

// parseArgs parses args into fs, refusing positional arguments, which no
// command that calls it takes: a stray word is a mistake (a flag missing
// its dashes, a value after a boolean flag), not something to ignore.
func parseArgs(fs *flag.FlagSet, args []string) error {
	fs.Usage = func() {} // -h is answered on stdout by exitUsage; errors get a hint instead
	err := fs.Parse(args)
	if err == nil && fs.NArg() > 0 {
		err = fmt.Errorf(msgUnexpectedArg, fs.Arg(0), fs.Name())
		fmt.Fprintf(fs.Output(), "sortkey %s: %v\n", fs.Name(), err)
	}
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintf(fs.Output(), msgBadFlags+"\n", fs.Name())
	}
	return err
}

// exitUsage is the exit status for a parse error: 0 for -h, after
// printing the flags on stdout, 2 for anything else.
func exitUsage(err error, fs *flag.FlagSet, stdout io.Writer) int {
	if !errors.Is(err, flag.ErrHelp) {
		return 2
	}
	fmt.Fprintf(stdout, "usage: sortkey %s [flags]\n\nflags:\n", fs.Name())
	fs.SetOutput(stdout)
	fs.PrintDefaults()
	if fs.Lookup(configFlag) != nil {
		fmt.Fprint(stdout, settingsFooter)
	}
	return 0
}

// configPath is the file --config names, on the command line or in the
// environment.
func configPath(fs *flag.FlagSet) string {
	fl := fs.Lookup(configFlag)
	if fl == nil {
		return ""
	}
	if set(fs, configFlag) {
		return fl.Value.String()
	}
	v, _ := lookupEnv(envName(configFlag))
	return v
}

// set reports whether the command line set the flag name.
func set(fs *flag.FlagSet, name string) bool {
	found := false
	fs.Visit(func(fl *flag.Flag) { found = found || fl.Name == name })
	return found
}

// lookupEnv is a variable's value, an empty one counting as unset: a
// container or unit file often has the line with no value.
func lookupEnv(name string) (string, bool) {
	v, ok := os.LookupEnv(name)
	return v, ok && v != ""
}

// applyEnv sets each flag whose environment variable is set.
func applyEnv(fs *flag.FlagSet) error {
	var err error
	fs.VisitAll(func(fl *flag.Flag) {
		v, ok := lookupEnv(envName(fl.Name))
		if !ok || err != nil {
			return
		}
		if serr := fs.Set(fl.Name, v); serr != nil {
			err = fmt.Errorf(msgEnvValue, envName(fl.Name), v, serr)
		}
	})
	return err
}

// applyConfigFile sets the flags the config file at path names; "" is no file.
func applyConfigFile(fs *flag.FlagSet, path string) error {
	if path == "" {
		return nil
	}
	doc, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf(msgConfigRead, err)
	}
	pairs, err := configPairs(doc, path)
	if err != nil {
		return err
	}
	for _, p := range pairs {
		if err := p.apply(fs, path); err != nil {
			return err
		}
	}
	return nil
}

// configPair is one key of a config file and its value's node.
type configPair struct {
	key   string
	line  int
	value *yaml.Node
}

// configPairs reads the file's mapping; JSON is YAML too. An empty file
// sets nothing.
func configPairs(doc []byte, path string) ([]configPair, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(doc, &root); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(root.Content) == 0 {
		return nil, nil
	}
	m := root.Content[0]
	if m.Kind != yaml.MappingNode {
		return nil, fmt.Errorf(msgConfigShape, path)
	}
	var pairs []configPair
	for i := 0; i+1 < len(m.Content); i += 2 {
		pairs = append(pairs, configPair{key: m.Content[i].Value, line: m.Content[i].Line, value: m.Content[i+1]})
	}
	return pairs, twice(pairs, path)
}

// twice refuses a key given twice, which would leave a reader guessing
// which value counts.
func twice(pairs []configPair, path string) error {
	seen := map[string]bool{}
	for _, p := range pairs {
		if seen[p.key] {
			return fmt.Errorf(msgConfigTwice, path, p.line, p.key)
		}
		seen[p.key] = true
	}
	return nil
}

// apply sets the pair's flag, refusing a key that is not one of fs's
// flags and a value the flag does not take.
func (p configPair) apply(fs *flag.FlagSet, path string) error {
	switch {
	case fs.Lookup(p.key) == nil:
		return fmt.Errorf(msgConfigKey, path, p.line, p.key, fs.Name())
	case p.key == configFlag:
		return fmt.Errorf(msgConfigSelf, path, p.line, p.key)
	case p.value.Kind != yaml.ScalarNode:
		return fmt.Errorf(msgConfigNested, path, p.line, p.key)
	case p.value.ShortTag() == "!!null":
		return fmt.Errorf(msgConfigNull, path, p.line, p.key)
	}
	if err := fs.Set(p.key, p.value.Value); err != nil {
		return fmt.Errorf(msgConfigValue, path, p.line, p.key, p.value.Value, err)
	}
	return nil
}

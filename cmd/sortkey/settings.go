package main

// A command's settings come from four places, each over the next: its
// command line, SORTKEY_* environment variables, the file of --config,
// and the flags' defaults. They are layered over the flag set itself, so
// every flag, whoever adds it, can be set all three ways with the same
// parsing; the checks after parsing see the result, wherever a value
// came from. The command line is parsed twice, once to find --config and
// once to win over the environment and the file, so a flag whose Value
// adds up its values must implement repeatable: each source that sets it
// clears the values of the sources below, and the second parse must not
// add the command line's values to those of the first.

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
	msgConfigItem    = "%s:%d: key %q: a list of this flag's values holds plain values, not lists or mappings"
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
SORTKEY_CONFIG), such as "data-dir: /data", or a list for a repeatable
flag ("s3-dir: [a=./a, b=./b]"). The command line wins over the
environment, and the environment over the file; a repeatable flag's values
from one replace those from another. An empty variable counts as unset.
`

// envName is the environment variable of the flag name.
func envName(name string) string {
	return envPrefix + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
}

// parseLayered parses args into fs over the environment and, when fs has
// --config and one is named, the config file. Errors are written to fs's
// output; -h writes nothing and returns flag.ErrHelp (see exitUsage).
func parseLayered(fs *flag.FlagSet, args []string) error {
	_, err := parseLayeredFrom(fs, args)
	return err
}

// parseLayeredFrom is parseLayered, also saying where each flag's value
// came from, for checks of flags that contradict each other.
func parseLayeredFrom(fs *flag.FlagSet, args []string) (sourceOf, error) {
	if err := parseArgs(fs, args); err != nil {
		return nil, err
	}
	onCommandLine := visited(fs)
	if err := applyBelow(fs); err != nil {
		return nil, err
	}
	clearRepeatables(fs, onCommandLine)
	err := fs.Parse(args)
	return sources(fs, onCommandLine), err
}

// applyBelow sets fs's flags from the sources below the command line: the
// config file, then the environment.
func applyBelow(fs *flag.FlagSet) error {
	err := applyConfigFile(fs, configPath(fs))
	if err == nil {
		err = applyEnv(fs)
	}
	if err != nil {
		fmt.Fprintf(fs.Output(), "sortkey %s: %v\n", fs.Name(), err)
	}
	return err
}

// source is where a flag's value came from, each over the ones before.
type source int

const (
	fromDefault source = iota
	fromConfig
	fromEnv
	fromCommandLine
)

// sourceOf is the source of the named flag's value.
type sourceOf func(name string) source

// sources is the source of each flag of fs, once every source is applied:
// the highest that set it.
func sources(fs *flag.FlagSet, onCommandLine func(*flag.Flag) bool) sourceOf {
	anywhere := visited(fs)
	return func(name string) source {
		_, inEnv := lookupEnv(envName(name))
		fl := fs.Lookup(name)
		switch {
		case onCommandLine(fl):
			return fromCommandLine
		case inEnv:
			return fromEnv
		case anywhere(fl):
			return fromConfig
		}
		return fromDefault
	}
}

// where names the source of flag name's value in a message.
func (s source) where(name string) string {
	switch s {
	case fromCommandLine:
		return "--" + name + " on the command line"
	case fromEnv:
		return envName(name)
	case fromConfig:
		return name + " in the config file"
	}
	return "the default --" + name
}

// repeatable is a flag.Value that adds up the values it is set to, such as
// --s3-dir's buckets. Within a source they add up; a source above replaces
// them all rather than adding to them, which clear makes possible.
type repeatable interface {
	flag.Value
	clear()
}

// clearRepeatables empties the repeatable flags of fs that one accepts,
// before a source sets them anew.
func clearRepeatables(fs *flag.FlagSet, one func(*flag.Flag) bool) {
	fs.VisitAll(func(fl *flag.Flag) {
		if one(fl) {
			clearFlag(fl)
		}
	})
}

// clearFlag empties fl if it is repeatable, before a source sets it anew;
// any other flag's next value replaces its last anyway.
func clearFlag(fl *flag.Flag) {
	if r, ok := fl.Value.(repeatable); ok {
		r.clear()
	}
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
	return visited(fs)(fs.Lookup(name))
}

// visited is whether a flag has been set so far, by the sources parsed.
func visited(fs *flag.FlagSet) func(*flag.Flag) bool {
	seen := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { seen[fl.Name] = true })
	return func(fl *flag.Flag) bool { return fl != nil && seen[fl.Name] }
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
		clearFlag(fl)
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
// flags and a value the flag does not take. A repeatable flag takes a
// list of values too, as the command line takes the flag repeated.
func (p configPair) apply(fs *flag.FlagSet, path string) error {
	fl := fs.Lookup(p.key)
	switch {
	case fl == nil:
		return fmt.Errorf(msgConfigKey, path, p.line, p.key, fs.Name())
	case p.key == configFlag:
		return fmt.Errorf(msgConfigSelf, path, p.line, p.key)
	}
	clearFlag(fl)
	if _, many := fl.Value.(repeatable); many && p.value.Kind == yaml.SequenceNode {
		return p.setEach(fs, path)
	}
	return p.set(fs, path, p.value, p.line, msgConfigNested)
}

// setEach sets the repeatable flag to each value of the pair's list.
func (p configPair) setEach(fs *flag.FlagSet, path string) error {
	for _, n := range p.value.Content {
		if err := p.set(fs, path, n, n.Line, msgConfigItem); err != nil {
			return err
		}
	}
	return nil
}

// set sets the pair's flag to the plain value n, written at line; notOne
// refuses a list or mapping.
func (p configPair) set(fs *flag.FlagSet, path string, n *yaml.Node, line int, notOne string) error {
	switch {
	case n.Kind != yaml.ScalarNode:
		return fmt.Errorf(notOne, path, line, p.key)
	case n.ShortTag() == "!!null":
		return fmt.Errorf(msgConfigNull, path, line, p.key)
	}
	if err := fs.Set(p.key, n.Value); err != nil {
		return fmt.Errorf(msgConfigValue, path, line, p.key, n.Value, err)
	}
	return nil
}

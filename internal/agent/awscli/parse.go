package awscli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

const (
	msgNotAWS         = "not an AWS CLI DynamoDB command: it must start with \"aws dynamodb <command>\""
	msgUnknownCommand = "aws dynamodb %s: not a DynamoDB data command (one of %s)"
	msgUnknownOption  = "aws dynamodb %s: unknown option --%s"
	msgUnknownGlobal  = "aws --%s: not an option of the AWS CLI's own that a command may carry"
	msgStray          = "aws dynamodb %s: unexpected word %q where an option (--name) belongs"
	msgNoValue        = "--%s needs a value"
	msgFlagValue      = "--%s is a flag and takes no value (--no-%s is false)"
	msgTwice          = "--%s is given twice"
	msgNotNumber      = "--%s takes a whole number, not %q"
	msgFile           = "--%s: %s values are not read (the command runs on this engine only and reads no files); put the value in the command"
	msgShorthand      = "--%s: the CLI's shorthand syntax (%s) is not read; write the value as JSON"
	msgBadJSON        = "--%s: invalid JSON: %v"
	msgTrailingJSON   = "--%s: more follows the JSON value"
	msgInputJSON      = "--cli-input-json: want a JSON object of %s's parameters: %v"
)

// Command is one AWS CLI DynamoDB command.
type Command struct {
	Operation string         // the API's operation, such as "Query"
	Request   map[string]any // the request the CLI would send, as its JSON body
	Paging    Paging
}

// Paging is how the CLI would page through a Query or Scan: by default
// it sends the request again from each answer's LastEvaluatedKey until
// there is none.
type Paging struct {
	MaxItems      int    // --max-items: stop after this many items (0: no cap)
	PageSize      int    // --page-size: the Limit of each request (0: the API's own pages)
	StartingToken string // --starting-token: the CLI's token to resume from
	Off           bool   // --no-paginate, --limit or --exclusive-start-key: one request only
}

// Parse reads one `aws dynamodb <command> ...` command line.
func Parse(line string) (*Command, error) {
	words, err := Words(line)
	if err != nil {
		return nil, err
	}
	rest, err := skipGlobals(words)
	if err != nil {
		return nil, err
	}
	if len(rest) < 2 || rest[0] != "dynamodb" {
		return nil, errors.New(msgNotAWS)
	}
	op, ok := commands[rest[1]]
	if !ok {
		return nil, fmt.Errorf(msgUnknownCommand, rest[1], strings.Join(commandNames(), ", "))
	}
	p := &parser{cmd: &Command{Operation: op, Request: map[string]any{}}, name: rest[1], words: rest[2:]}
	return p.cmd, p.run()
}

// skipGlobals passes "aws" and the global options before the service.
func skipGlobals(words []string) ([]string, error) {
	if len(words) == 0 || words[0] != "aws" {
		return nil, errors.New(msgNotAWS)
	}
	p := &parser{words: words[1:]}
	for len(p.words) > 0 && strings.HasPrefix(p.words[0], "--") {
		name, value, hasValue := strings.Cut(strings.TrimPrefix(p.next(), "--"), "=")
		ok, err := p.global(name, value, hasValue)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf(msgUnknownGlobal, name)
		}
	}
	return p.words, nil
}

func commandNames() []string {
	var names []string
	for c := range commands {
		names = append(names, c)
	}
	slices.Sort(names)
	return names
}

// parser reads a command's options.
type parser struct {
	cmd   *Command
	name  string // the command, for errors
	words []string
	seen  map[string]bool
	input map[string]any // --cli-input-json's parameters
}

func (p *parser) next() string {
	w := p.words[0]
	p.words = p.words[1:]
	return w
}

// run reads every option; --cli-input-json gives the parameters the
// options do not.
func (p *parser) run() error {
	p.seen = map[string]bool{}
	for len(p.words) > 0 {
		if err := p.option(); err != nil {
			return err
		}
	}
	for k, v := range p.input {
		if _, set := p.cmd.Request[k]; !set {
			p.cmd.Request[k] = v
		}
	}
	return nil
}

// option reads one --name [value].
func (p *parser) option() error {
	w := p.next()
	if !strings.HasPrefix(w, "--") || w == "--" {
		return fmt.Errorf(msgStray, p.name, w)
	}
	name, value, hasValue := strings.Cut(w[2:], "=")
	if err := p.once(name); err != nil {
		return err
	}
	if ok, err := p.global(name, value, hasValue); ok || err != nil {
		return err
	}
	if ok, err := p.cliOwn(name, value, hasValue); ok || err != nil {
		return err
	}
	return p.parameter(name, value, hasValue)
}

// once refuses an option given twice, --x and --no-x included: the CLI
// would quietly keep the last, and a model file means one of them.
func (p *parser) once(name string) error {
	key := strings.TrimPrefix(name, "no-")
	if p.seen[key] {
		return fmt.Errorf(msgTwice, name)
	}
	p.seen[key] = true
	return nil
}

// global passes an option of the CLI's own; ok says it was one.
func (p *parser) global(name, value string, hasValue bool) (ok bool, err error) {
	takesValue, ok := globals[name]
	if !ok {
		return false, nil
	}
	if takesValue {
		_, err = p.value(name, value, hasValue)
	} else if hasValue {
		err = fmt.Errorf(msgFlagValue, name, name)
	}
	return true, err
}

// value is an option's value: after '=' or the next word.
func (p *parser) value(name, value string, hasValue bool) (string, error) {
	if !hasValue {
		if len(p.words) == 0 || strings.HasPrefix(p.words[0], "--") {
			return "", fmt.Errorf(msgNoValue, name)
		}
		value = p.next()
	}
	for _, scheme := range []string{"file://", "fileb://"} {
		if strings.HasPrefix(strings.ToLower(value), scheme) {
			return "", fmt.Errorf(msgFile, name, scheme)
		}
	}
	return value, nil
}

// cliOwn reads the options the CLI reads itself rather than send: its
// paging of a Query or Scan, and --cli-input-json.
func (p *parser) cliOwn(name, value string, hasValue bool) (ok bool, err error) {
	pg := &p.cmd.Paging
	switch {
	case name == "no-paginate":
		pg.Off = true
		return true, p.noValue(name, hasValue)
	case name == "cli-input-json":
		return true, p.inputJSON(name, value, hasValue)
	case !paginated[p.cmd.Operation]:
		return false, nil
	case name == "starting-token":
		pg.StartingToken, err = p.value(name, value, hasValue)
		return true, err
	case name == "max-items":
		return true, p.wholeNumber(name, value, hasValue, &pg.MaxItems)
	case name == "page-size":
		return true, p.wholeNumber(name, value, hasValue, &pg.PageSize)
	}
	return false, nil
}

func (p *parser) noValue(name string, hasValue bool) error {
	if hasValue {
		return fmt.Errorf(msgFlagValue, name, name)
	}
	return nil
}

func (p *parser) wholeNumber(name, value string, hasValue bool, out *int) error {
	v, err := p.value(name, value, hasValue)
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return fmt.Errorf(msgNotNumber, name, v)
	}
	*out = n
	return nil
}

// inputJSON reads --cli-input-json, the request's parameters as one JSON
// object: each must be one the operation has.
func (p *parser) inputJSON(name, value string, hasValue bool) error {
	v, err := p.value(name, value, hasValue)
	if err != nil {
		return err
	}
	if err := decodeJSON(name, v, &p.input); err != nil {
		return fmt.Errorf(msgInputJSON, p.cmd.Operation, err)
	}
	for k := range p.input {
		if !slices.Contains(parameters[p.cmd.Operation], k) {
			return fmt.Errorf(msgInputJSON, p.cmd.Operation, fmt.Errorf("unknown parameter %s", k))
		}
	}
	p.offPaging(p.input)
	return nil
}

// parameter reads an option of the operation's own.
func (p *parser) parameter(name, value string, hasValue bool) error {
	param, ok := options[p.cmd.Operation][name]
	if !ok {
		if param, ok = options[p.cmd.Operation][strings.TrimPrefix(name, "no-")]; ok && kinds[param] == flag {
			p.cmd.Request[param] = false
			return p.noValue(name, hasValue)
		}
		return fmt.Errorf(msgUnknownOption, p.name, name)
	}
	v, err := p.convert(name, kinds[param], value, hasValue)
	if err != nil {
		return err
	}
	p.cmd.Request[param] = v
	p.offPaging(p.cmd.Request)
	return nil
}

// offPaging turns paging off, as the CLI does, when the request sets the
// limit or the start key that paging would set.
func (p *parser) offPaging(req map[string]any) {
	_, limit := req["Limit"]
	_, start := req["ExclusiveStartKey"]
	if paginated[p.cmd.Operation] && (limit || start) {
		p.cmd.Paging.Off = true
	}
}

func (p *parser) convert(name string, k kind, value string, hasValue bool) (any, error) {
	if k == flag {
		return true, p.noValue(name, hasValue)
	}
	if k == names && !hasValue {
		return p.names(name)
	}
	v, err := p.value(name, value, hasValue)
	switch {
	case err != nil:
		return nil, err
	case k == number:
		var n int
		return n, p.wholeNumber(name, v, true, &n)
	case k == jsonArg:
		return structure(name, v)
	case k == names && !strings.HasPrefix(strings.TrimSpace(v), "["):
		return []any{v}, nil
	case k == names:
		return structure(name, v)
	}
	return v, nil
}

// names reads a list of strings: a JSON list, or the words up to the
// next option.
func (p *parser) names(name string) (any, error) {
	if len(p.words) > 0 && strings.HasPrefix(strings.TrimSpace(p.words[0]), "[") {
		return structure(name, p.next())
	}
	var list []any
	for len(p.words) > 0 && !strings.HasPrefix(p.words[0], "--") {
		list = append(list, p.next())
	}
	if len(list) == 0 {
		return nil, fmt.Errorf(msgNoValue, name)
	}
	return list, nil
}

// structure is a structure's, map's or list's JSON value.
func structure(name, v string) (any, error) {
	t := strings.TrimSpace(v)
	if !strings.HasPrefix(t, "{") && !strings.HasPrefix(t, "[") && strings.Contains(t, "=") {
		return nil, fmt.Errorf(msgShorthand, name, v)
	}
	var out any
	return out, decodeJSON(name, v, &out)
}

// decodeJSON reads exactly one JSON value, numbers kept as written.
func decodeJSON(name, v string, out any) error {
	dec := json.NewDecoder(bytes.NewReader([]byte(v)))
	dec.UseNumber()
	if err := dec.Decode(out); err != nil {
		return fmt.Errorf(msgBadJSON, name, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf(msgTrailingJSON, name)
	}
	return nil
}

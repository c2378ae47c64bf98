package awscli

import (
	"errors"
	"fmt"
	"strings"
)

const (
	msgUnterminated = "unterminated %s quote that starts at byte %d"
	msgDangling     = "a backslash ends the command: nothing follows it to escape"
	msgShellOp      = "%q at byte %d: one aws dynamodb command is run, without shell operators, redirections or substitutions"
	msgExpansion    = "%q at byte %d: shell variables are not expanded; write the value itself"
)

// splitter cuts a command line into words as a POSIX shell does, without
// expanding anything.
type splitter struct {
	s     string
	i     int
	words []string
	word  strings.Builder
	open  bool // a word has started (an empty '' is a word)
}

// Words is the command line's words.
func Words(line string) ([]string, error) {
	sp := &splitter{s: line}
	for sp.i < len(sp.s) {
		if err := sp.step(); err != nil {
			return nil, err
		}
	}
	sp.end()
	return sp.words, nil
}

// step reads one unquoted byte, or one quoted or escaped run.
func (sp *splitter) step() error {
	c := sp.s[sp.i]
	switch {
	case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		sp.end()
		sp.i++
		return nil
	case c == '#' && !sp.open:
		sp.comment()
		return nil
	case c == '\'':
		return sp.single()
	case c == '"':
		return sp.double()
	case c == '\\':
		return sp.escape()
	case strings.IndexByte("|;&<>()`", c) >= 0:
		return fmt.Errorf(msgShellOp, string(c), sp.i)
	case c == '$':
		return fmt.Errorf(msgExpansion, "$", sp.i)
	}
	sp.add(c)
	sp.i++
	return nil
}

func (sp *splitter) add(c byte) {
	sp.word.WriteByte(c)
	sp.open = true
}

func (sp *splitter) end() {
	if sp.open {
		sp.words = append(sp.words, sp.word.String())
		sp.word.Reset()
		sp.open = false
	}
}

// comment skips to the end of the line, as a shell skips a # comment.
func (sp *splitter) comment() {
	for sp.i < len(sp.s) && sp.s[sp.i] != '\n' {
		sp.i++
	}
}

// single reads '...': every byte up to the next ' is the word's.
func (sp *splitter) single() error {
	end := strings.IndexByte(sp.s[sp.i+1:], '\'')
	if end < 0 {
		return fmt.Errorf(msgUnterminated, "single", sp.i)
	}
	sp.word.WriteString(sp.s[sp.i+1 : sp.i+1+end])
	sp.open = true
	sp.i += end + 2
	return nil
}

// double reads "...": a backslash escapes only $ ` " \ and a newline
// there, and is kept before anything else.
func (sp *splitter) double() error {
	start := sp.i
	sp.open = true
	for sp.i++; sp.i < len(sp.s); sp.i++ {
		switch c := sp.s[sp.i]; c {
		case '"':
			sp.i++
			return nil
		case '$', '`':
			return fmt.Errorf(msgExpansion, string(c), sp.i)
		case '\\':
			sp.quotedEscape()
		default:
			sp.word.WriteByte(c)
		}
	}
	return fmt.Errorf(msgUnterminated, "double", start)
}

func (sp *splitter) quotedEscape() {
	if sp.i+1 == len(sp.s) {
		sp.word.WriteByte('\\')
		return
	}
	switch n := sp.s[sp.i+1]; n {
	case '$', '`', '"', '\\':
		sp.word.WriteByte(n)
		sp.i++
	case '\n':
		sp.i++
	default:
		sp.word.WriteByte('\\')
	}
}

// escape reads an unquoted backslash: before a newline it joins two
// lines, before anything else it makes that byte the word's.
func (sp *splitter) escape() error {
	rest := sp.s[sp.i+1:]
	switch {
	case rest == "":
		return errors.New(msgDangling)
	case strings.HasPrefix(rest, "\r\n"):
		sp.i += 3 // a continuation in a file with Windows line ends
	case rest[0] == '\n':
		sp.i += 2
	default:
		sp.add(rest[0])
		sp.i += 2
	}
	return nil
}

package sqlitefile

import (
	"errors"
	"fmt"
)

// tokKind is the kind of one SQL token.
type tokKind uint8

const (
	tEOF    tokKind = iota
	tWord           // a bare identifier or keyword
	tQuoted         // "x", [x] or `x`: an identifier
	tString         // 'x'
	tNumber         // 12, 1.5e3, 0x1F
	tBlob           // x'00ff'
	tPunct          // one byte of punctuation: ( ) , + - ...
)

// token is one token: its kind and where it lies in the statement.
type token struct {
	kind       tokKind
	start, end int
}

// lexer splits a statement into tokens, skipping white space and comments
// as SQLite's tokenizer does.
type lexer struct {
	s   string
	pos int
}

// next returns the next token (tEOF at the end).
func (l *lexer) next() (token, error) {
	if err := l.skip(); err != nil {
		return token{}, err
	}
	start := l.pos
	if start >= len(l.s) {
		return token{kind: tEOF, start: start, end: start}, nil
	}
	kind, err := l.scan()
	if err != nil {
		return token{}, fmt.Errorf("byte %d: %w", start, err)
	}
	return token{kind: kind, start: start, end: l.pos}, nil
}

// skip moves past white space and comments (-- to the end of the line,
// /* */, an unclosed one to the end).
func (l *lexer) skip() error {
	for l.pos < len(l.s) {
		c := l.s[l.pos]
		switch {
		case isSpace(c):
			l.pos++
		case c == '-' && l.at(1) == '-':
			l.pos = l.lineEnd()
		case c == '/' && l.at(1) == '*':
			l.pos = l.commentEnd()
		default:
			return nil
		}
	}
	return nil
}

// at is the byte i bytes past pos, 0 past the end.
func (l *lexer) at(i int) byte {
	if l.pos+i < len(l.s) {
		return l.s[l.pos+i]
	}
	return 0
}

func (l *lexer) lineEnd() int {
	for i := l.pos; i < len(l.s); i++ {
		if l.s[i] == '\n' {
			return i + 1
		}
	}
	return len(l.s)
}

func (l *lexer) commentEnd() int {
	for i := l.pos + 2; i+1 < len(l.s); i++ {
		if l.s[i] == '*' && l.s[i+1] == '/' {
			return i + 2
		}
	}
	return len(l.s)
}

// scan reads the token at pos, which is not white space.
func (l *lexer) scan() (tokKind, error) {
	c := l.s[l.pos]
	switch {
	case (c == 'x' || c == 'X') && l.at(1) == '\'':
		l.pos++
		return tBlob, l.quoted('\'')
	case isIDStart(c):
		l.word()
		return tWord, nil
	case isDigit(c) || c == '.' && isDigit(l.at(1)):
		return tNumber, l.number()
	case c == '\'':
		return tString, l.quoted('\'')
	case c == '"' || c == '`':
		return tQuoted, l.quoted(c)
	case c == '[':
		return tQuoted, l.bracket()
	case c > ' ' && c < 0x7f:
		l.pos++
		return tPunct, nil
	}
	return 0, fmt.Errorf("unexpected byte 0x%02x", c)
}

func (l *lexer) word() {
	for l.pos < len(l.s) && isIDChar(l.s[l.pos]) {
		l.pos++
	}
}

// quoted reads a token quoted by q, in which q is doubled.
func (l *lexer) quoted(q byte) error {
	for i := l.pos + 1; i < len(l.s); i++ {
		if l.s[i] != q {
			continue
		}
		if i+1 < len(l.s) && l.s[i+1] == q {
			i++
			continue
		}
		l.pos = i + 1
		return nil
	}
	return errors.New("unterminated quote")
}

func (l *lexer) bracket() error {
	for i := l.pos + 1; i < len(l.s); i++ {
		if l.s[i] == ']' {
			l.pos = i + 1
			return nil
		}
	}
	return errors.New("unterminated [")
}

// number reads a decimal (digits, fraction, exponent) or 0x hexadecimal
// integer; one run into letters is refused.
func (l *lexer) number() error {
	if l.at(0) == '0' && (l.at(1) == 'x' || l.at(1) == 'X') && isHex(l.at(2)) {
		l.pos += 2
		for isHex(l.at(0)) {
			l.pos++
		}
	} else {
		l.digits()
		if l.at(0) == '.' {
			l.pos++
			l.digits()
		}
		l.exponent()
	}
	if isIDChar(l.at(0)) {
		return errors.New("malformed number")
	}
	return nil
}

func (l *lexer) digits() {
	for isDigit(l.at(0)) {
		l.pos++
	}
}

func (l *lexer) exponent() {
	if c := l.at(0); c != 'e' && c != 'E' {
		return
	}
	i := 1
	if c := l.at(1); c == '+' || c == '-' {
		i = 2
	}
	if isDigit(l.at(i)) {
		l.pos += i
		l.digits()
	}
}

func isSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isHex(c byte) bool   { return isDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'f' }

// isIDStart: a letter, _ or any byte of a multi-byte UTF-8 character.
func isIDStart(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' || c == '_' || c >= 0x80 }

// isIDChar: isIDStart, a digit or $.
func isIDChar(c byte) bool { return isIDStart(c) || isDigit(c) || c == '$' }

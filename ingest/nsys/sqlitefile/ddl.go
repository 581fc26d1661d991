package sqlitefile

import (
	"errors"
	"fmt"
	"strings"
)

// Column is one column of a table as SQLite's pragma_table_xinfo lists it.
type Column struct {
	Name       string // as declared, unquoted
	Type       string // the declared type as written ("" none); SQLite's own names (INTEGER, TEXT ...) in capitals
	PK         int    // the column's position in the primary key from 1, 0 when not in it
	HasDefault bool   // a DEFAULT clause (pragma_table_xinfo's dflt_value is not NULL)
}

// TableDef is what a CREATE TABLE statement says of a table's layout.
type TableDef struct {
	Columns      []Column
	WithoutRowid bool
	// PKDesc is a column's PRIMARY KEY DESC, which keeps an INTEGER
	// column from being an alias of the rowid.
	PKDesc bool
}

// ParseCreateTable parses a CREATE TABLE statement as sqlite_master holds
// it. It knows what Nsight Systems writes and a little more: comments,
// quoted names, types with sizes, the column constraints NOT NULL, NULL,
// UNIQUE, PRIMARY KEY (ASC or DESC, ON CONFLICT, AUTOINCREMENT), CHECK,
// DEFAULT, COLLATE and CONSTRAINT names, the table constraints PRIMARY
// KEY, UNIQUE and CHECK, and WITHOUT ROWID. Anything else (REFERENCES,
// FOREIGN KEY, generated columns, STRICT, a schema-qualified name, a
// malformed statement) is an error wrapping ErrUnsupported: the caller
// asks SQLite instead.
func ParseCreateTable(sql string) (TableDef, error) {
	p := &parser{lex: lexer{s: sql}}
	d, err := p.parse()
	if err != nil {
		return TableDef{}, fmt.Errorf("CREATE TABLE statement: %w (%w)", err, ErrUnsupported)
	}
	return d, nil
}

// parser is a recursive-descent parser over the tokens of one statement.
type parser struct {
	lex lexer
	tok token
	pk  bool  // a primary key has been declared
	err error // the first tokenizer error: the rest reads as the end
}

func (p *parser) advance() error {
	if p.err != nil {
		return p.err
	}
	t, err := p.lex.next()
	if err != nil {
		p.err, t = err, token{kind: tEOF, start: len(p.lex.s), end: len(p.lex.s)}
	}
	p.tok = t
	return err
}

// text is the current token's text.
func (p *parser) text() string { return p.lex.s[p.tok.start:p.tok.end] }

// is reports whether the current token is the keyword or punctuation w
// (ASCII case-insensitive, as SQLite's keywords).
func (p *parser) is(w string) bool {
	return (p.tok.kind == tWord || p.tok.kind == tPunct) && strings.EqualFold(p.text(), w)
}

// accept skips the current token when it is w.
func (p *parser) accept(w string) (bool, error) {
	if !p.is(w) {
		return false, nil
	}
	return true, p.advance()
}

// expect skips the words ws, one after the other, or fails.
func (p *parser) expect(ws ...string) error {
	for _, w := range ws {
		if !p.is(w) {
			return p.unexpected(w)
		}
		if err := p.advance(); err != nil {
			return err
		}
	}
	return nil
}

func (p *parser) unexpected(want string) error {
	if p.tok.kind == tEOF {
		return fmt.Errorf("ends where %s was expected", want)
	}
	return fmt.Errorf("%q at byte %d where %s was expected", p.text(), p.tok.start, want)
}

func (p *parser) parse() (TableDef, error) {
	var d TableDef
	if err := p.advance(); err != nil {
		return d, err
	}
	if err := p.header(); err != nil {
		return d, err
	}
	if err := p.body(&d); err != nil {
		return d, err
	}
	if err := p.options(&d); err != nil {
		return d, err
	}
	if p.tok.kind != tEOF {
		return d, p.unexpected("the end")
	}
	return d, p.err
}

// header reads CREATE TABLE [IF NOT EXISTS] name (.
func (p *parser) header() error {
	if err := p.expect("CREATE", "TABLE"); err != nil {
		return err
	}
	if p.is("IF") {
		if err := p.expect("IF", "NOT", "EXISTS"); err != nil {
			return err
		}
	}
	if _, err := p.name(); err != nil {
		return err
	}
	return p.expect("(")
}

// name reads a name: a word, a quoted identifier or a string, unquoted.
func (p *parser) name() (string, error) {
	var s string
	switch t := p.text(); p.tok.kind {
	case tWord:
		s = t
	case tQuoted, tString:
		s = dequote(t)
	default:
		return "", p.unexpected("a name")
	}
	return s, p.advance()
}

// dequote strips a quoted token's quotes and undoubles the inner ones.
func dequote(t string) string {
	q, in := t[0], t[1:len(t)-1]
	if q == '[' {
		return in
	}
	return strings.ReplaceAll(in, string([]byte{q, q}), string(q))
}

// body reads the column definitions and table constraints up to the
// closing parenthesis, and checks the columns.
func (p *parser) body(d *TableDef) error {
	for {
		if p.isTableConstraint() {
			if err := p.tableConstraints(d); err != nil {
				return err
			}
			break
		}
		if err := p.column(d); err != nil {
			return err
		}
		if ok, err := p.accept(","); err != nil || !ok {
			if err != nil {
				return err
			}
			break
		}
	}
	if err := p.expect(")"); err != nil {
		return err
	}
	return checkColumns(d.Columns)
}

// checkColumns refuses what SQLite would: no columns, or two of one name.
func checkColumns(cs []Column) error {
	if len(cs) == 0 {
		return errors.New("no columns")
	}
	for i, c := range cs {
		for _, o := range cs[:i] {
			if strings.EqualFold(c.Name, o.Name) {
				return fmt.Errorf("column %q declared twice", c.Name)
			}
		}
	}
	return nil
}

func (p *parser) isTableConstraint() bool {
	for _, w := range []string{"CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN"} {
		if p.tok.kind == tWord && p.is(w) {
			return true
		}
	}
	return false
}

// column reads one column definition: name, type, constraints.
func (p *parser) column(d *TableDef) error {
	name, err := p.name()
	if err != nil {
		return err
	}
	c := Column{Name: name}
	if c.Type, err = p.typeName(); err != nil {
		return err
	}
	for !p.is(",") && !p.is(")") {
		if err := p.columnConstraint(d, &c); err != nil {
			return err
		}
	}
	d.Columns = append(d.Columns, c)
	return nil
}

// constraintWords start a column constraint: a type ends before them.
var constraintWords = []string{"CONSTRAINT", "PRIMARY", "NOT", "NULL", "UNIQUE", "CHECK", "DEFAULT", "COLLATE",
	"REFERENCES", "GENERATED", "AS", "DEFERRABLE"}

func (p *parser) isConstraintWord() bool {
	for _, w := range constraintWords {
		if p.is(w) {
			return true
		}
	}
	return false
}

// stdTypes are the type names SQLite keeps in capitals.
var stdTypes = []string{"ANY", "BLOB", "INT", "INTEGER", "REAL", "TEXT"}

// typeName reads a declared type (words, then an optional size in
// parentheses) and returns its text as written.
func (p *parser) typeName() (string, error) {
	start, end := p.tok.start, -1
	for p.tok.kind == tWord && !p.isConstraintWord() {
		end = p.tok.end
		if err := p.advance(); err != nil {
			return "", err
		}
	}
	if end < 0 {
		return "", nil
	}
	if p.is("(") {
		var err error
		if end, err = p.typeSize(); err != nil {
			return "", err
		}
	}
	t := p.lex.s[start:end]
	for _, s := range stdTypes {
		if strings.EqualFold(t, s) {
			return s, nil
		}
	}
	return t, nil
}

// typeSize reads (n) or (n, m) and returns the end of the closing
// parenthesis.
func (p *parser) typeSize() (int, error) {
	if err := p.advance(); err != nil {
		return 0, err
	}
	if err := p.signedNumber(); err != nil {
		return 0, err
	}
	if p.is(",") {
		if err := p.advance(); err != nil {
			return 0, err
		}
		if err := p.signedNumber(); err != nil {
			return 0, err
		}
	}
	end := p.tok.end
	return end, p.expect(")")
}

func (p *parser) signedNumber() error {
	if p.is("+") || p.is("-") {
		if err := p.advance(); err != nil {
			return err
		}
	}
	if p.tok.kind != tNumber {
		return p.unexpected("a number")
	}
	return p.advance()
}

// columnConstraint reads one column constraint.
func (p *parser) columnConstraint(d *TableDef, c *Column) error {
	if p.tok.kind != tWord {
		return p.unexpected("a column constraint")
	}
	w := strings.ToUpper(p.text())
	if err := p.advance(); err != nil {
		return err
	}
	switch w {
	case "CONSTRAINT", "COLLATE":
		_, err := p.name()
		return err
	case "PRIMARY":
		return p.columnKey(d, c)
	case "NOT":
		if err := p.expect("NULL"); err != nil {
			return err
		}
		return p.onConflict()
	case "NULL", "UNIQUE":
		return p.onConflict()
	case "CHECK":
		return p.parens()
	case "DEFAULT":
		c.HasDefault = true
		return p.defaultValue()
	}
	return fmt.Errorf("column constraint %s", w)
}

// columnKey reads the rest of PRIMARY KEY [ASC|DESC] [ON CONFLICT ...]
// [AUTOINCREMENT].
func (p *parser) columnKey(d *TableDef, c *Column) error {
	if err := p.expect("KEY"); err != nil {
		return err
	}
	if p.pk {
		return errors.New("a second primary key")
	}
	p.pk, c.PK = true, 1
	if _, err := p.accept("ASC"); err != nil {
		return err
	}
	desc, err := p.accept("DESC")
	if err != nil {
		return err
	}
	d.PKDesc = desc
	if err := p.onConflict(); err != nil {
		return err
	}
	_, err = p.accept("AUTOINCREMENT")
	return err
}

// onConflict reads an optional ON CONFLICT clause.
func (p *parser) onConflict() error {
	if ok, err := p.accept("ON"); err != nil || !ok {
		return err
	}
	if err := p.expect("CONFLICT"); err != nil {
		return err
	}
	for _, w := range []string{"ROLLBACK", "ABORT", "FAIL", "IGNORE", "REPLACE"} {
		if p.is(w) {
			return p.advance()
		}
	}
	return p.unexpected("a conflict resolution")
}

// parens skips a parenthesized expression, nested parentheses included.
func (p *parser) parens() error {
	if err := p.expect("("); err != nil {
		return err
	}
	for depth := 1; depth > 0; {
		switch {
		case p.tok.kind == tEOF:
			return p.unexpected(")")
		case p.is("("):
			depth++
		case p.is(")"):
			depth--
		}
		if err := p.advance(); err != nil {
			return err
		}
	}
	return nil
}

// defaultValue reads a DEFAULT's value: a parenthesized expression, a
// signed number, or one literal or name.
func (p *parser) defaultValue() error {
	if p.is("(") {
		return p.parens()
	}
	if p.is("+") || p.is("-") {
		return p.signedNumber()
	}
	switch p.tok.kind {
	case tWord, tQuoted, tString, tNumber, tBlob:
		return p.advance()
	}
	return p.unexpected("a default value")
}

// tableConstraints reads the table constraints (commas between them are
// optional, as in SQLite).
func (p *parser) tableConstraints(d *TableDef) error {
	for p.isTableConstraint() {
		if err := p.tableConstraint(d); err != nil {
			return err
		}
		if _, err := p.accept(","); err != nil {
			return err
		}
	}
	return nil
}

// tableConstraint reads one [CONSTRAINT name] PRIMARY KEY (...), UNIQUE
// (...) or CHECK (...).
func (p *parser) tableConstraint(d *TableDef) error {
	if ok, err := p.accept("CONSTRAINT"); err != nil || ok {
		if _, err := p.name(); err != nil {
			return err
		}
	}
	w := strings.ToUpper(p.text())
	if err := p.advance(); err != nil {
		return err
	}
	switch w {
	case "PRIMARY":
		return p.tableKey(d)
	case "UNIQUE":
		if _, err := p.columnList(); err != nil {
			return err
		}
		return p.onConflict()
	case "CHECK":
		return p.parens()
	}
	return fmt.Errorf("table constraint %s", w)
}

// tableKey reads the rest of PRIMARY KEY (cols) and numbers the columns.
func (p *parser) tableKey(d *TableDef) error {
	if err := p.expect("KEY"); err != nil {
		return err
	}
	if p.pk {
		return errors.New("a second primary key")
	}
	p.pk = true
	names, err := p.columnList()
	if err != nil {
		return err
	}
	for i, n := range names {
		c := d.column(n)
		if c == nil || c.PK != 0 {
			return fmt.Errorf("primary key column %q unknown or repeated", n)
		}
		c.PK = i + 1
	}
	return p.onConflict()
}

// column is the column named n (ASCII case-insensitive), nil if none.
func (d *TableDef) column(n string) *Column {
	for i := range d.Columns {
		if strings.EqualFold(d.Columns[i].Name, n) {
			return &d.Columns[i]
		}
	}
	return nil
}

// columnList reads (name [COLLATE x] [ASC|DESC], ...) [AUTOINCREMENT]
// inside the parentheses.
func (p *parser) columnList() ([]string, error) {
	if err := p.expect("("); err != nil {
		return nil, err
	}
	var names []string
	for {
		n, err := p.indexedColumn()
		if err != nil {
			return nil, err
		}
		names = append(names, n)
		if ok, err := p.accept(","); err != nil || !ok {
			if err != nil {
				return nil, err
			}
			break
		}
	}
	if _, err := p.accept("AUTOINCREMENT"); err != nil {
		return nil, err
	}
	return names, p.expect(")")
}

func (p *parser) indexedColumn() (string, error) {
	n, err := p.name()
	if err != nil {
		return "", err
	}
	if ok, err := p.accept("COLLATE"); err != nil || ok {
		if _, err := p.name(); err != nil {
			return "", err
		}
	}
	for _, w := range []string{"ASC", "DESC"} {
		if _, err := p.accept(w); err != nil {
			return "", err
		}
	}
	return n, nil
}

// options reads the table options after the closing parenthesis: WITHOUT
// ROWID only (STRICT is left to SQLite).
func (p *parser) options(d *TableDef) error {
	for p.tok.kind != tEOF {
		if err := p.expect("WITHOUT", "ROWID"); err != nil {
			return err
		}
		d.WithoutRowid = true
		if ok, err := p.accept(","); err != nil || !ok {
			return err
		}
	}
	return nil
}

package ncclog

// collMatch is collRe.FindStringSubmatch(msg) without the regexp, which
// took about 7 % of a 1,024-rank cold run with its NCCL logs beside
// (docs/performance.md round 38): the submatches of a COLL line, ok false
// when it is not one. Each part of collRe ends at a byte its class cannot
// hold (a run of \w, hex digits, digits or \S ends where the next literal
// byte begins), so one forward scan finds the only way it can match;
// FuzzCollMatch holds it to collRe.
func collMatch(msg string) (m [10]string, ok bool) {
	c := scan{s: msg}
	m[1] = c.run(isWord)
	ok = m[1] != "" && c.lit(": opCount ")
	if m[2] = c.run(isHex); ok && m[2] != "" && c.lit(" sendbuff ") && c.run(notSpace) != "" && c.lit(" recvbuff ") && c.run(notSpace) != "" && c.lit(" count ") {
		ok = c.fields(&m)
	} else {
		ok = false
	}
	if !ok {
		return [10]string{}, false
	}
	m[0] = msg
	return m, true
}

// fields scans collRe from the count's digits to the end (submatches 3
// to 9).
func (c *scan) fields(m *[10]string) bool {
	if m[3] = c.run(isDigit); m[3] == "" || !c.lit(" datatype ") {
		return false
	}
	if m[4] = c.run(isDigit); m[4] == "" || !c.lit(" op ") {
		return false
	}
	if m[5] = c.run(isDigit); m[5] == "" || !c.lit(" root ") {
		return false
	}
	if m[6] = c.root(); m[6] == "" || !c.lit(" comm ") {
		return false
	}
	if m[7] = c.hex0x(); m[7] == "" || !c.lit(" [nranks=") {
		return false
	}
	if m[8] = c.run(isDigit); m[8] == "" || !c.lit("] stream ") {
		return false
	}
	if m[9] = c.stream(); m[9] == "" {
		return false
	}
	c.run(isSpace)
	return c.i == len(c.s)
}

// scan reads msg from i on.
type scan struct {
	s string
	i int
}

// run takes the bytes from i that in holds (none: "").
func (c *scan) run(in func(byte) bool) string {
	from := c.i
	for c.i < len(c.s) && in(c.s[c.i]) {
		c.i++
	}
	return c.s[from:c.i]
}

// lit takes lit when the text at i is it.
func (c *scan) lit(lit string) bool {
	if len(c.s)-c.i < len(lit) || c.s[c.i:c.i+len(lit)] != lit {
		return false
	}
	c.i += len(lit)
	return true
}

// root takes -?\d+ ("" when there is none).
func (c *scan) root() string {
	from := c.i
	c.lit("-")
	if c.run(isDigit) == "" {
		c.i = from
		return ""
	}
	return c.s[from:c.i]
}

// hex0x takes 0x[0-9a-fA-F]+ ("" when there is none).
func (c *scan) hex0x() string {
	from := c.i
	if !c.lit("0x") || c.run(isHex) == "" {
		c.i = from
		return ""
	}
	return c.s[from:c.i]
}

// stream takes 0x[0-9a-fA-F]+ or (nil) ("" when neither).
func (c *scan) stream() string {
	if h := c.hex0x(); h != "" {
		return h
	}
	if c.lit("(nil)") {
		return "(nil)"
	}
	return ""
}

func isWord(b byte) bool  { return isDigit(b) || b|0x20 >= 'a' && b|0x20 <= 'z' || b == '_' }
func isDigit(b byte) bool { return b >= '0' && b <= '9' }
func isHex(b byte) bool   { return isDigit(b) || b|0x20 >= 'a' && b|0x20 <= 'f' }

// isSpace is regexp's \s: \t, \n, \f, \r and space (not \v).
func isSpace(b byte) bool  { return b == '\t' || b == '\n' || b == '\f' || b == '\r' || b == ' ' }
func notSpace(b byte) bool { return !isSpace(b) }

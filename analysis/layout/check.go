package layout

// CheckOrder reports whether s is a rank order Analyze accepts ("tp-dp-pp",
// any case, "-" or "," separated, each axis at most once), so that a command
// line can refuse a bad --order as a usage error before reading traces.
func CheckOrder(s string) error {
	_, err := parseOrder(s)
	return err
}

package cli

import (
	"flag"
	"strings"
)

// interleave lets flags follow the inputs ("analyze run/ --json", "ingest dir
// -o ds"): it moves the positional arguments after the flags, in order. A
// flag consumes the next argument unless it is boolean or written -f=value;
// "--" ends the flags; "-" alone is a positional (stdin).
func interleave(fs *flag.FlagSet, args []string) []string {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			pos = append(pos, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "-") && a != "-":
			flags = append(flags, a)
			if takesValue(fs, a) && i+1 < len(args) {
				flags = append(flags, args[i+1])
				i++
			}
		default:
			pos = append(pos, a)
		}
	}
	if len(pos) == 0 {
		return flags
	}
	return append(append(flags, "--"), pos...)
}

// takesValue reports whether the flag argument a, without "=value", consumes
// the next argument: it names a defined flag that is not boolean.
func takesValue(fs *flag.FlagSet, a string) bool {
	name := strings.TrimLeft(a, "-")
	if strings.Contains(name, "=") {
		return false
	}
	f := fs.Lookup(name)
	if f == nil {
		return false
	}
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return !ok || !b.IsBoolFlag()
}

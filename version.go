package tpptrace

import "runtime/debug"

// modulePath is this module's path, to find its version in a build that
// links it as a dependency.
const modulePath = "github.com/tpptrace/tpptrace"

// ToolVersion is "tpptrace <version>", as recorded in results: the module
// version of this library in the running binary, "tpptrace devel" when
// the build does not say (a build from a checkout).
func ToolVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "tpptrace devel"
	}
	return "tpptrace " + moduleVersion(bi)
}

// moduleVersion is this module's version in bi: the main module's or a
// dependency's, "devel" when unknown.
func moduleVersion(bi *debug.BuildInfo) string {
	m := &bi.Main
	for _, d := range bi.Deps {
		if d.Path == modulePath {
			m = d
		}
	}
	if m.Path != modulePath || m.Version == "" || m.Version == "(devel)" {
		return "devel"
	}
	return m.Version
}

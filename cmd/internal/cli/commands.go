package cli

// Commands is the registry: dispatch, `tpptrace help`, the README's command
// table and the CLI tests all read it. Each command lives in cmd_<name>.go.
func Commands() []*Command {
	return []*Command{
		ingestCmd,
		analyzeCmd,
		compareCmd,
		breakdownCmd,
		kernelsCmd,
		ncclCmd,
		nvtxCmd,
		reportCmd,
		pprofCmd,
		exportCmd,
		tuiCmd,
		hangCmd,
		whatifCmd,
		sampleCmd,
		samplesCmd,
		versionCmd,
	}
}

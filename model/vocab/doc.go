// Package vocab is the one vocabulary every layer shares: how numbers are
// formatted (durations, sizes, rates, fractions, counts) the same way in
// every view, Safe for every input string bound for a terminal, the names
// of the parallel axes and of the timeline's categories, and the registry of
// finding kinds with their help text and what their severity means.
//
// It imports the standard library only (and sits beside the model, whose
// enums name the axes), so that analysis, the Result, the views, the gate
// and the command's help all read the same table instead of each writing
// its own strings.
package vocab

// Package pickle decodes the subset of Python's pickle format that PyTorch
// Flight Recorder dumps use (protocols 2 to 5: dicts, lists, tuples, strings,
// integers, floats, booleans and None) into plain Go values, without
// executing anything. Every opcode that would import a module, call a
// function or build an object (GLOBAL, STACK_GLOBAL, REDUCE, BUILD, INST,
// OBJ, NEWOBJ, PERSID, EXT*) is rejected with an error naming the opcode and
// its byte offset, and so is any opcode this package does not know.
//
// Decoded values are: nil, bool, int64, float64, string, []byte, []any
// (lists), Tuple and map[string]any (dicts; integer keys become their decimal
// text). Integers wider than 64 bits are rejected.
package pickle

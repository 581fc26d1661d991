// Package measure turns one rank's GPU events into the figures of
// docs/semantics.md: compute, communication per axis, exposed communication,
// memcpy, idle and bubble per step window, and the wait and transfer of every
// collective instance on the aligned clock.
//
// Everything is built on Set, a sorted list of disjoint half-open intervals
// stored by value (no pointers), with linear-time union, intersection,
// subtraction and clipping.
package measure

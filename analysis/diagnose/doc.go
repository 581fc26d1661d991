// Package diagnose turns measured figures into a diagnosis: stage
// imbalance and the bottleneck stage, slow ranks (robust score of compute
// against peers doing the same work, and blame from collectives they arrived
// last to), communicator statistics with an α-β fit, and the ranked
// findings with their cost per step, evidence and remedy.
//
// It takes what it reads as arguments (Figures: the measured rank and
// stage figures, layout, schedule and the verdicts so far) and returns
// what it finds (a Verdict, slow ranks, findings); it never writes a Result.
package diagnose

// Package hang attributes a hung or desynchronised job from its ranks'
// PyTorch Flight Recorder dumps (model.FRDump, decoded by
// ingest/flightrec): per process group, the first collective where the
// ranks disagree (missing, mismatched, stuck), and the ranks the hang is
// blamed on, as a result.Hang that report/hang writes in the layout of
// NVIDIA's nvidia-resiliency-ext attribution. docs/nccl.md gives the rules.
package hang

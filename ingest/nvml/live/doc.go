// Package live samples this node's GPUs through NVML (go-nvml, cgo) for
// `tpptrace sample`. Only the command imports it, so reading sample files
// (ingest/nvml) never links the bindings. The real sampler is built with
// the nvml build tag (go install -tags nvml ./cmd/tpptrace, cgo on
// Linux); without it OpenSystem reports nvml.ErrNoNVML, and the command
// exits 4 with how to rebuild.
package live

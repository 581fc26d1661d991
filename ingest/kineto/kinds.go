package kineto

import "github.com/tpptrace/tpptrace/model"

// kindOf maps a Kineto category to an event kind; ok is false for the
// categories the reader does not keep. Kernels are refined by name later.
func kindOf(cat string) (model.Kind, bool) {
	switch cat {
	case "kernel", "Kernel":
		return model.KindCompute, true
	case "gpu_memcpy", "Memcpy":
		return model.KindMemcpy, true
	case "gpu_memset", "Memset":
		return model.KindMemset, true
	case "cpu_op":
		return model.KindCPUOp, true
	case "user_annotation":
		return model.KindAnnotation, true
	case "gpu_user_annotation":
		return model.KindGPUAnnotation, true
	case "cuda_runtime", "cuda_driver", "Runtime":
		return model.KindRuntime, true
	}
	return model.KindUnknown, false
}

// ownCategory tells whether cat is one Kineto writes about itself rather
// than about the job: "Trace", the profiler's span over the capture
// window ("PyTorch Profiler (0)" on the "Spans" process), and "ac2g", its
// flow arrows from each launch to its kernel (the correlation id already
// links them). Their events are dropped without a skip record: they are
// not input the user gave.
func ownCategory(cat string) bool { return cat == "Trace" || cat == "ac2g" }

// ownInstant tells whether an instant event is one of the profiler's own
// marks of its capture window.
func ownInstant(name string) bool {
	return name == "Iteration Start: PyTorch Profiler" || name == "Record Window End"
}

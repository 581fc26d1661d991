package kineto

import "github.com/tpptrace/tpptrace/ingest/model"

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

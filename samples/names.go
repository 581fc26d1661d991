package samples

// Kernel and CPU-op names, as PyTorch 2.4+ with cuBLAS, flash-attention and
// NCCL 2.22+ on an H100 records them.
const (
	gemmFwd  = "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas"
	gemmDgrd = "sm90_xmma_gemm_bf16bf16_bf16f32_f32_nn_n_tilesize128x256x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas"
	gemmWgrd = "sm90_xmma_gemm_bf16bf16_bf16f32_f32_nt_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas"
	lnFwd    = "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float>(int, float, c10::BFloat16 const*, c10::BFloat16 const*, c10::BFloat16 const*, float*, float*, c10::BFloat16*)"
	lnBwd    = "void at::native::(anonymous namespace)::layer_norm_grad_input_kernel_vectorized<c10::BFloat16, float>(c10::BFloat16 const*, c10::BFloat16 const*, float const*, float const*, c10::BFloat16 const*, c10::BFloat16*, int)"
	attnFwd  = "void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::bfloat16_t> >(Flash_fwd_params)"
	attnBwd  = "void flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<Flash_bwd_kernel_traits<128, 64, 128, 8, 2, 4, 2, false, false, cutlass::bfloat16_t> >(Flash_bwd_params)"
	geluFwd  = "void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda(c10::BFloat16)#1}, at::detail::Array<char*, 2> >(int, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda(c10::BFloat16)#1}, at::detail::Array<char*, 2>)"
	geluBwd  = "void at::native::vectorized_elementwise_kernel<4, at::native::GeluBackwardCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda(c10::BFloat16, c10::BFloat16)#1}, at::detail::Array<char*, 3> >(int, at::native::GeluBackwardCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda(c10::BFloat16, c10::BFloat16)#1}, at::detail::Array<char*, 3>)"
	lossFwd  = "void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, c10::BFloat16, float, c10::BFloat16, at::native::(anonymous namespace)::LogSoftMaxForwardEpilogue>(c10::BFloat16*, c10::BFloat16 const*, int)"
	adamKern = "void multi_tensor_apply_kernel<TensorListMetadata<4>, AdamFunctor<float>, float, float, float, float, float, float, adamMode_t, float>(long, int volatile*, TensorListMetadata<4>, AdamFunctor<float>, float, float, float, float, float, float, adamMode_t, float)"
	normKern = "void multi_tensor_apply_kernel<TensorListMetadata<1>, L2NormFunctor<float, float>, float*, float*, bool, int>(long, int volatile*, TensorListMetadata<1>, L2NormFunctor<float, float>, float*, float*, bool, int)"

	ncclAllReduce     = "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)"
	ncclReduceScatter = "ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)"
	ncclAllGather     = "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)"
	ncclSendRecv      = "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)"

	launchName = "cudaLaunchKernel"
	launchExC  = "cudaLaunchKernelExC"
	syncName   = "cudaDeviceSynchronize"
	dtypeBF16  = "BFloat16"
)

// Process-group descriptions (Megatron-LM's group_desc values).
const (
	DescWorld = "default_pg"
	DescTP    = "TENSOR_MODEL_PARALLEL_GROUP"
	DescPP    = "PIPELINE_MODEL_PARALLEL_GROUP"
	DescDP    = "DATA_PARALLEL_GROUP"
	DescCP    = "CONTEXT_PARALLEL_GROUP"
	DescEP    = "EXPERT_MODEL_PARALLEL_GROUP"
	DescNone  = "undefined" // what PyTorch records for a group created without group_desc
)

// Annotation names and formats (documented in docs/generator.md).
const (
	StepFmt     = "ProfilerStep#%d"
	ForwardFmt  = "forward_step#%d"
	BackwardFmt = "backward_step#%d"
	// Interleaved pipelines name the model chunk of each pass.
	ForwardChunkFmt  = "forward_step#%d.chunk%d"
	BackwardChunkFmt = "backward_step#%d.chunk%d"
	OptimName        = "Optimizer.step#AdamW.step"
	DPSyncName       = "grads-reduce"
)

// block is the transformer block a TP collective belongs to.
type block uint8

const (
	blockNone block = iota
	blockAttn
	blockMLP
)

// kernelSpec is one compute kernel of a layer: its name, its CPU op, its
// share of the layer's forward (or backward) time, and the TP collectives
// around it: after (a row-parallel output, or a column-parallel input
// gradient: all-reduce, reduce-scatter with sequence parallelism) and before
// (with sequence parallelism, the all-gather of a column-parallel input).
type kernelSpec struct {
	name, op      string
	share         float64
	before, after block
}

// fwdLayer is one transformer layer's forward: attention then MLP, each
// ending in a row-parallel linear whose output is reduced over TP.
var fwdLayer = []kernelSpec{
	{lnFwd, "aten::native_layer_norm", 0.04, blockNone, blockNone},
	{gemmFwd, "aten::mm", 0.22, blockAttn, blockNone},
	{attnFwd, "FlashAttnFunc", 0.20, blockNone, blockNone},
	{gemmFwd, "aten::mm", 0.10, blockNone, blockAttn},
	{lnFwd, "aten::native_layer_norm", 0.04, blockNone, blockNone},
	{gemmFwd, "aten::mm", 0.20, blockMLP, blockNone},
	{geluFwd, "aten::gelu", 0.05, blockNone, blockNone},
	{gemmFwd, "aten::mm", 0.15, blockNone, blockMLP},
}

// bwdLayer is a layer's backward: MLP then attention, with the reductions
// of the column-parallel input gradients.
var bwdLayer = []kernelSpec{
	{gemmDgrd, "aten::mm", 0.08, blockMLP, blockNone},
	{gemmWgrd, "aten::mm", 0.08, blockNone, blockNone},
	{geluBwd, "aten::gelu_backward", 0.04, blockNone, blockNone},
	{gemmDgrd, "aten::mm", 0.10, blockNone, blockNone},
	{gemmWgrd, "aten::mm", 0.10, blockNone, blockMLP},
	{lnBwd, "aten::native_layer_norm_backward", 0.04, blockNone, blockNone},
	{gemmDgrd, "aten::mm", 0.05, blockAttn, blockNone},
	{gemmWgrd, "aten::mm", 0.05, blockNone, blockNone},
	{attnBwd, "FlashAttnFuncBackward", 0.28, blockNone, blockNone},
	{gemmDgrd, "aten::mm", 0.08, blockNone, blockNone},
	{gemmWgrd, "aten::mm", 0.06, blockNone, blockAttn},
	{lnBwd, "aten::native_layer_norm_backward", 0.04, blockNone, blockNone},
}

package result

import "testing"

func TestLayoutString(t *testing.T) {
	for _, c := range []struct {
		l    Layout
		want string
	}{
		{Layout{TP: 2, PP: 4, DP: 2}, "TP2 PP4 DP2"},
		{Layout{TP: 2, PP: 2, DP: 1, CP: 2}, "TP2 PP2 DP1 CP2 EP1"},
		{Layout{TP: 2, PP: 2, DP: 1, EP: 4}, "TP2 PP2 DP1 CP1 EP4"},
	} {
		if got := c.l.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.l, got, c.want)
		}
	}
}

func TestRankRanges(t *testing.T) {
	for _, c := range []struct {
		in   []int
		want string
	}{{nil, ""}, {[]int{5}, "5"}, {[]int{0, 1, 2, 3, 6}, "0-3,6"}, {[]int{1, 3, 4, 7}, "1,3-4,7"}} {
		if got := RankRanges(c.in); got != c.want {
			t.Errorf("RankRanges(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestKernelShortName(t *testing.T) {
	for in, want := range map[string]string{
		"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)": "at::native::vectorized_elementwise_kernel",
		"ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)": "ncclDevKernel_SendRecv",
		"sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n":                 "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n",
		"Memcpy DtoD (Device -> Device)":                           "Memcpy DtoD",
	} {
		if got := KernelShortName(in); got != want {
			t.Errorf("KernelShortName(%q) = %q, want %q", in, got, want)
		}
	}
}

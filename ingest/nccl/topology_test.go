package nccl

import (
	"testing"

	"github.com/tpptrace/tpptrace/model"
)

func TestCommAxis(t *testing.T) {
	cases := []struct {
		c    model.Communicator
		want model.Axis
	}{
		{model.Communicator{Desc: "TENSOR_MODEL_PARALLEL_GROUP"}, model.AxisTP},
		{model.Communicator{Desc: "mesh_dp_replicate"}, model.AxisDP},
		{model.Communicator{Name: "PP Group 3"}, model.AxisPP},
		{model.Communicator{Name: "tp"}, model.AxisTP},
		{model.Communicator{Name: "DP Replicas"}, model.AxisUnknown},
		{model.Communicator{Desc: "undefined", Name: "17"}, model.AxisUnknown},
		{model.Communicator{Desc: "TENSOR_MODEL_PARALLEL_GROUP", Axis: model.AxisDP}, model.AxisDP},
	}
	for _, tc := range cases {
		if got := CommAxis(tc.c); got != tc.want {
			t.Errorf("CommAxis(%+v) = %s, want %s", tc.c, got, tc.want)
		}
	}
}

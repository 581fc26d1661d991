//go:build cgo && linux && nvml

package live

import (
	"github.com/tpptrace/tpptrace/ingest/nvml"

	"encoding/binary"
	"errors"
	"fmt"
	"testing"
	"time"

	nv "github.com/NVIDIA/go-nvml/pkg/nvml"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock"
)

// fakeGPU is the state a mocked device reports.
type fakeGPU struct {
	smClock, memClock, powerMW, limitMW, temp uint32
	util                                      nv.Utilization
	reasons                                   uint64
	nvlTxKiB, nvlRxKiB                        uint64
	ecc                                       uint64
	noNVLink                                  bool
}

func busBytes(s string) (b [32]int8) {
	for i := range min(len(s), 31) {
		b[i] = int8(s[i])
	}
	return b
}

func putU64(v uint64) (out [8]byte) { binary.LittleEndian.PutUint64(out[:], v); return out }

func newMockDevice(i int, f *fakeGPU) *mock.Device {
	ok := nv.SUCCESS
	return &mock.Device{
		GetUUIDFunc: func() (string, nv.Return) { return fmt.Sprintf("GPU-%04d", i), ok },
		GetNameFunc: func() (string, nv.Return) { return "NVIDIA H100 80GB HBM3", ok },
		GetPciInfoFunc: func() (nv.PciInfo, nv.Return) {
			return nv.PciInfo{BusId: busBytes(fmt.Sprintf("00000000:%02X:00.0", 0x18+i))}, ok
		},
		GetUtilizationRatesFunc: func() (nv.Utilization, nv.Return) { return f.util, ok },
		GetClockInfoFunc: func(c nv.ClockType) (uint32, nv.Return) {
			if c == nv.CLOCK_SM {
				return f.smClock, ok
			}
			return f.memClock, ok
		},
		GetPowerUsageFunc:                func() (uint32, nv.Return) { return f.powerMW, ok },
		GetEnforcedPowerLimitFunc:        func() (uint32, nv.Return) { return f.limitMW, ok },
		GetTemperatureFunc:               func(nv.TemperatureSensors) (uint32, nv.Return) { return f.temp, ok },
		GetMemoryInfoFunc:                func() (nv.Memory, nv.Return) { return nv.Memory{Used: 60 << 30, Total: 80 << 30}, ok },
		GetCurrentClocksEventReasonsFunc: func() (uint64, nv.Return) { return f.reasons, ok },
		GetPcieThroughputFunc: func(c nv.PcieUtilCounter) (uint32, nv.Return) {
			if c == nv.PCIE_UTIL_TX_BYTES {
				return 1200, ok
			}
			return 3400, ok
		},
		GetFieldValuesFunc: func(fv []nv.FieldValue) nv.Return {
			for j := range fv {
				if f.noNVLink {
					fv[j].NvmlReturn = uint32(nv.ERROR_NOT_SUPPORTED)
					continue
				}
				fv[j].ValueType = uint32(nv.VALUE_TYPE_UNSIGNED_LONG_LONG)
				v := f.nvlTxKiB
				if fv[j].FieldId == nv.FI_DEV_NVLINK_THROUGHPUT_DATA_RX {
					v = f.nvlRxKiB
				}
				fv[j].Value, fv[j].NvmlReturn = putU64(v), uint32(nv.SUCCESS)
			}
			return ok
		},
		GetTotalEccErrorsFunc: func(nv.MemoryErrorType, nv.EccCounterType) (uint64, nv.Return) { return f.ecc, ok },
		RegisterEventsFunc:    func(uint64, nv.EventSet) nv.Return { return ok },
	}
}

// newMockLib builds a library of n GPUs with GPM support, and an event set
// that delivers the events queued in *pending.
func newMockLib(gpus []*fakeGPU, pending *[]nv.EventData) (*mock.Interface, []*mock.Device) {
	devs := make([]*mock.Device, len(gpus))
	for i, f := range gpus {
		devs[i] = newMockDevice(i, f)
	}
	set := &mock.EventSet{
		WaitFunc: func(uint32) (nv.EventData, nv.Return) {
			if len(*pending) == 0 {
				return nv.EventData{}, nv.ERROR_TIMEOUT
			}
			ev := (*pending)[0]
			*pending = (*pending)[1:]
			return ev, nv.SUCCESS
		},
		FreeFunc: func() nv.Return { return nv.SUCCESS },
	}
	calls := 0
	lib := &mock.Interface{
		InitFunc:                   func() nv.Return { return nv.SUCCESS },
		ShutdownFunc:               func() nv.Return { return nv.SUCCESS },
		DeviceGetCountFunc:         func() (int, nv.Return) { return len(devs), nv.SUCCESS },
		DeviceGetHandleByIndexFunc: func(i int) (nv.Device, nv.Return) { return devs[i], nv.SUCCESS },
		EventSetCreateFunc:         func() (nv.EventSet, nv.Return) { return set, nv.SUCCESS },
		GpmQueryDeviceSupportFunc: func(nv.Device) (nv.GpmSupport, nv.Return) {
			return nv.GpmSupport{IsSupportedDevice: 1}, nv.SUCCESS
		},
		GpmSampleAllocFunc: func() (nv.GpmSample, nv.Return) {
			return &mock.GpmSample{FreeFunc: func() nv.Return { return nv.SUCCESS }}, nv.SUCCESS
		},
		GpmSampleGetFunc: func(nv.Device, nv.GpmSample) nv.Return { calls++; return nv.SUCCESS },
		GpmMetricsGetFunc: func(m *nv.GpmMetricsGetType) nv.Return {
			m.Metrics[0].Value, m.Metrics[1].Value = 87.5, 61.25
			return nv.SUCCESS
		},
	}
	return lib, devs
}

func TestOpenWithoutDriverCallsNothingElse(t *testing.T) {
	// Every method but Init is unset: calling one would panic, as calling
	// the real NVML after a failed Init kills the process.
	lib := &mock.Interface{InitFunc: func() nv.Return { return nv.ERROR_LIBRARY_NOT_FOUND }}
	_, err := Open(lib, "node000")
	if !errors.Is(err, nvml.ErrNoDriver) {
		t.Fatalf("Open without driver = %v, want nvml.ErrNoDriver", err)
	}
	if len(lib.InitCalls()) != 1 {
		t.Fatalf("Init called %d times", len(lib.InitCalls()))
	}
}

func TestOpenOtherInitFailure(t *testing.T) {
	lib := &mock.Interface{InitFunc: func() nv.Return { return nv.ERROR_NO_PERMISSION }}
	if _, err := Open(lib, "h"); err == nil || errors.Is(err, nvml.ErrNoDriver) {
		t.Fatalf("want a permission error, got %v", err)
	}
}

func TestSampleEveryMetric(t *testing.T) {
	f := &fakeGPU{smClock: 1410, memClock: 2619, powerMW: 650_000, limitMW: 700_000, temp: 83,
		util: nv.Utilization{Gpu: 98, Memory: 41}, reasons: nv.ClocksThrottleReasonHwThermalSlowdown,
		nvlTxKiB: 1_000, nvlRxKiB: 2_000, ecc: 2}
	var pending []nv.EventData
	lib, devs := newMockLib([]*fakeGPU{f}, &pending)
	c, err := Open(lib, "node007")
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Unix(1_700_000_000, 0)
	first, _ := c.Sample(t0)
	f.nvlTxKiB, f.nvlRxKiB = 1_000+500_000, 2_000+250_000 // KiB in 0.5 s
	pending = append(pending, nv.EventData{Device: devs[0], EventType: nv.EventTypeXidCriticalError, EventData: 79})
	rows, _ := c.Sample(t0.Add(500 * time.Millisecond))
	if len(first) != 1 || len(rows) != 1 {
		t.Fatalf("want one row per pass, got %d and %d", len(first), len(rows))
	}
	if first[0].NVLinkTxKBs != -1 || first[0].GPMSMUtil != -1 {
		t.Errorf("rates need two passes: first pass nvlink=%d gpm=%v", first[0].NVLinkTxKBs, first[0].GPMSMUtil)
	}
	want := nvml.Row{Host: "node007", GPUIndex: 0, UUID: "GPU-0000", BusID: "00000000:18:00.0", Name: "NVIDIA H100 80GB HBM3",
		TimeNs: t0.Add(500 * time.Millisecond).UnixNano(), SMUtil: 98, MemUtil: 41, SMClockMHz: 1410, MemClockMHz: 2619,
		PowerMW: 650_000, PowerLimitMW: 700_000, TempC: 83, MemUsedBytes: 60 << 30, ClockReasons: 64,
		PCIeTxKBs: 1200, PCIeRxKBs: 3400, NVLinkTxKBs: 1_000_000, NVLinkRxKBs: 500_000, ECCUncorrected: 2, XID: 79,
		GPMSMUtil: 87.5, GPMTensorUtil: 61.25}
	if rows[0] != want {
		t.Errorf("sample\n got %+v\nwant %+v", rows[0], want)
	}
	third, _ := c.Sample(t0.Add(time.Second))
	if third[0].XID != 0 {
		t.Errorf("an XID is reported once, got it again: %d", third[0].XID)
	}
	if err := c.Close(); err != nil || len(lib.ShutdownCalls()) != 1 {
		t.Fatalf("Close = %v, shutdown calls %d", err, len(lib.ShutdownCalls()))
	}
}

func TestSampleUnsupportedMetricsAreMinusOne(t *testing.T) {
	f := &fakeGPU{noNVLink: true}
	var pending []nv.EventData
	lib, devs := newMockLib([]*fakeGPU{f}, &pending)
	devs[0].GetPowerUsageFunc = func() (uint32, nv.Return) { return 0, nv.ERROR_NOT_SUPPORTED }
	devs[0].GetTemperatureFunc = func(nv.TemperatureSensors) (uint32, nv.Return) { return 0, nv.ERROR_NOT_SUPPORTED }
	lib.GpmQueryDeviceSupportFunc = func(nv.Device) (nv.GpmSupport, nv.Return) { return nv.GpmSupport{}, nv.SUCCESS }
	c, err := Open(lib, "h")
	if err != nil {
		t.Fatal(err)
	}
	c.Sample(time.Unix(1, 0))
	rows, _ := c.Sample(time.Unix(2, 0))
	r := rows[0]
	if r.PowerMW != -1 || r.TempC != -1 || r.NVLinkTxKBs != -1 || r.GPMSMUtil != -1 || r.GPMTensorUtil != -1 {
		t.Errorf("unsupported metrics must be -1: %+v", r)
	}
}

func BenchmarkSamplePass8GPUs(b *testing.B) {
	gpus := make([]*fakeGPU, 8)
	for i := range gpus {
		gpus[i] = &fakeGPU{smClock: 1980, util: nv.Utilization{Gpu: 99}}
	}
	var pending []nv.EventData
	lib, _ := newMockLib(gpus, &pending)
	c, err := Open(lib, "h")
	if err != nil {
		b.Fatal(err)
	}
	now := time.Unix(1_700_000_000, 0)
	b.ReportAllocs()
	for b.Loop() {
		now = now.Add(100 * time.Millisecond)
		c.Sample(now)
	}
}

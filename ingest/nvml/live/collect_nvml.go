//go:build cgo && linux && nvml

package live

import (
	"github.com/tpptrace/tpptrace/ingest/nvml"

	"encoding/binary"
	"fmt"
	"math"
	"os"
	"time"

	nv "github.com/NVIDIA/go-nvml/pkg/nvml"
)

// Collector samples every GPU NVML sees on this host.
type Collector struct {
	lib    nv.Interface
	host   string
	gpus   []*gpu
	events nv.EventSet // nil when events cannot be registered
}

// gpu is one device and the state kept between passes.
type gpu struct {
	dev             nv.Device
	index           int32
	uuid, bus, name string
	gpm             bool
	gpmPrev, gpmCur nv.GpmSample
	haveGPM         bool
	nvlTx, nvlRx    uint64
	nvlAt           time.Time
	xid             int32
}

// OpenSystem opens the machine's NVML. Without a driver it returns
// nvml.ErrNoDriver and calls nothing else of NVML.
func OpenSystem() (nvml.Source, error) {
	host, _ := os.Hostname()
	return Open(nv.New(), host)
}

// Open initializes lib and discovers its GPUs.
func Open(lib nv.Interface, host string) (*Collector, error) {
	if r := lib.Init(); r != nv.SUCCESS {
		if r == nv.ERROR_LIBRARY_NOT_FOUND {
			return nil, nvml.ErrNoDriver
		}
		return nil, fmt.Errorf("NVML init: %s", r.Error())
	}
	c := &Collector{lib: lib, host: host}
	if err := c.discover(); err != nil {
		lib.Shutdown()
		return nil, err
	}
	c.registerEvents()
	return c, nil
}

func (c *Collector) discover() error {
	n, r := c.lib.DeviceGetCount()
	if r != nv.SUCCESS {
		return fmt.Errorf("NVML device count: %s", r.Error())
	}
	for i := 0; i < n; i++ {
		dev, r := c.lib.DeviceGetHandleByIndex(i)
		if r != nv.SUCCESS {
			return fmt.Errorf("NVML device %d: %s", i, r.Error())
		}
		c.gpus = append(c.gpus, c.identify(dev, int32(i)))
	}
	return nil
}

func (c *Collector) identify(dev nv.Device, index int32) *gpu {
	g := &gpu{dev: dev, index: index}
	g.uuid, _ = dev.GetUUID()
	g.name, _ = dev.GetName()
	if pci, r := dev.GetPciInfo(); r == nv.SUCCESS {
		g.bus = busID(pci.BusId)
	}
	if sup, r := c.lib.GpmQueryDeviceSupport(dev); r == nv.SUCCESS && sup.IsSupportedDevice != 0 {
		g.gpm = c.allocGPM(g)
	}
	return g
}

func busID(b [32]int8) string {
	out := make([]byte, 0, len(b))
	for _, c := range b {
		if c == 0 {
			break
		}
		out = append(out, byte(c))
	}
	return string(out)
}

func (c *Collector) allocGPM(g *gpu) bool {
	a, r1 := c.lib.GpmSampleAlloc()
	b, r2 := c.lib.GpmSampleAlloc()
	if r1 != nv.SUCCESS || r2 != nv.SUCCESS {
		return false
	}
	g.gpmPrev, g.gpmCur = a, b
	return true
}

func (c *Collector) registerEvents() {
	set, r := c.lib.EventSetCreate()
	if r != nv.SUCCESS {
		return
	}
	c.events = set
	for _, g := range c.gpus {
		g.dev.RegisterEvents(nv.EventTypeXidCriticalError|nv.EventTypeDoubleBitEccError, set)
	}
}

// Sample takes one pass over every GPU.
func (c *Collector) Sample(now time.Time) ([]nvml.Row, error) {
	c.drainEvents()
	rows := make([]nvml.Row, 0, len(c.gpus))
	for _, g := range c.gpus {
		rows = append(rows, c.sampleGPU(g, now))
	}
	return rows, nil
}

func (c *Collector) sampleGPU(g *gpu, now time.Time) nvml.Row {
	d := g.dev
	row := nvml.Row{Host: c.host, GPUIndex: g.index, UUID: g.uuid, BusID: g.bus, Name: g.name, TimeNs: now.UnixNano()}
	row.SMUtil, row.MemUtil = utilization(d)
	row.SMClockMHz = u32(d.GetClockInfo(nv.CLOCK_SM))
	row.MemClockMHz = u32(d.GetClockInfo(nv.CLOCK_MEM))
	row.PowerMW = u32(d.GetPowerUsage())
	row.PowerLimitMW = u32(d.GetEnforcedPowerLimit())
	row.TempC = u32(d.GetTemperature(nv.TEMPERATURE_GPU))
	row.MemUsedBytes = memUsed(d)
	row.ClockReasons = uint64(u64(d.GetCurrentClocksEventReasons())) // -1, all bits, when unsupported
	row.PCIeTxKBs = u32(d.GetPcieThroughput(nv.PCIE_UTIL_TX_BYTES))
	row.PCIeRxKBs = u32(d.GetPcieThroughput(nv.PCIE_UTIL_RX_BYTES))
	row.NVLinkTxKBs, row.NVLinkRxKBs = g.nvlinkRates(now)
	row.ECCUncorrected = u64(d.GetTotalEccErrors(nv.MEMORY_ERROR_TYPE_UNCORRECTED, nv.VOLATILE_ECC))
	row.XID, g.xid = g.xid, 0
	row.GPMSMUtil, row.GPMTensorUtil = c.gpmMetrics(g)
	return row
}

func utilization(d nv.Device) (int32, int32) {
	u, r := d.GetUtilizationRates()
	if r != nv.SUCCESS {
		return -1, -1
	}
	return int32(u.Gpu), int32(u.Memory)
}

func memUsed(d nv.Device) int64 {
	m, r := d.GetMemoryInfo()
	if r != nv.SUCCESS {
		return -1
	}
	return int64(m.Used)
}

func u32(v uint32, r nv.Return) int32 {
	if r != nv.SUCCESS || v > math.MaxInt32 {
		return -1
	}
	return int32(v)
}

func u64(v uint64, r nv.Return) int64 {
	if r != nv.SUCCESS || v > math.MaxInt64 {
		return -1
	}
	return int64(v)
}

// nvlinkRates turns NVML's cumulative NVLink data counters (KiB, all links)
// into KiB/s since the previous pass; -1 on the first pass or without NVLink.
func (g *gpu) nvlinkRates(now time.Time) (int64, int64) {
	fv := []nv.FieldValue{
		{FieldId: nv.FI_DEV_NVLINK_THROUGHPUT_DATA_TX, ScopeId: math.MaxUint32},
		{FieldId: nv.FI_DEV_NVLINK_THROUGHPUT_DATA_RX, ScopeId: math.MaxUint32},
	}
	if g.dev.GetFieldValues(fv) != nv.SUCCESS || fv[0].NvmlReturn != uint32(nv.SUCCESS) || fv[1].NvmlReturn != uint32(nv.SUCCESS) {
		return -1, -1
	}
	tx, rx := fieldUint(fv[0]), fieldUint(fv[1])
	prevTx, prevRx, prevAt := g.nvlTx, g.nvlRx, g.nvlAt
	g.nvlTx, g.nvlRx, g.nvlAt = tx, rx, now
	dt := now.Sub(prevAt).Seconds()
	if prevAt.IsZero() || dt <= 0 || tx < prevTx || rx < prevRx {
		return -1, -1
	}
	return int64(float64(tx-prevTx) / dt), int64(float64(rx-prevRx) / dt)
}

func fieldUint(f nv.FieldValue) uint64 {
	switch nv.ValueType(f.ValueType) {
	case nv.VALUE_TYPE_UNSIGNED_INT:
		return uint64(binary.LittleEndian.Uint32(f.Value[:4]))
	case nv.VALUE_TYPE_DOUBLE:
		return uint64(math.Float64frombits(binary.LittleEndian.Uint64(f.Value[:])))
	default:
		return binary.LittleEndian.Uint64(f.Value[:])
	}
}

// gpmMetrics returns GPM SM and tensor utilization between the previous
// pass and this one; -1 on the first pass or without GPM.
func (c *Collector) gpmMetrics(g *gpu) (float64, float64) {
	if !g.gpm || c.lib.GpmSampleGet(g.dev, g.gpmCur) != nv.SUCCESS {
		return -1, -1
	}
	defer func() { g.gpmPrev, g.gpmCur, g.haveGPM = g.gpmCur, g.gpmPrev, true }()
	if !g.haveGPM {
		return -1, -1
	}
	mg := &nv.GpmMetricsGetType{Version: nv.GPM_METRICS_GET_VERSION, NumMetrics: 2, Sample1: g.gpmPrev, Sample2: g.gpmCur}
	mg.Metrics[0].MetricId = uint32(nv.GPM_METRIC_SM_UTIL)
	mg.Metrics[1].MetricId = uint32(nv.GPM_METRIC_ANY_TENSOR_UTIL)
	if c.lib.GpmMetricsGet(mg) != nv.SUCCESS {
		return -1, -1
	}
	return gpmValue(mg.Metrics[0]), gpmValue(mg.Metrics[1])
}

func gpmValue(m nv.GpmMetric) float64 {
	if m.NvmlReturn != uint32(nv.SUCCESS) {
		return -1
	}
	return m.Value
}

// drainEvents collects XID and ECC events that arrived since the last pass.
func (c *Collector) drainEvents() {
	if c.events == nil {
		return
	}
	for i := 0; i < 64; i++ {
		ev, r := c.events.Wait(0)
		if r != nv.SUCCESS {
			return
		}
		c.recordEvent(ev)
	}
}

func (c *Collector) recordEvent(ev nv.EventData) {
	if ev.Device == nil {
		return
	}
	uuid, _ := ev.Device.GetUUID()
	for _, g := range c.gpus {
		if g.uuid == uuid && ev.EventType&nv.EventTypeXidCriticalError != 0 {
			g.xid = int32(ev.EventData)
		}
	}
}

// Close releases NVML resources.
func (c *Collector) Close() error {
	for _, g := range c.gpus {
		if g.gpm {
			g.gpmPrev.Free()
			g.gpmCur.Free()
		}
	}
	if c.events != nil {
		c.events.Free()
	}
	if r := c.lib.Shutdown(); r != nv.SUCCESS {
		return fmt.Errorf("NVML shutdown: %s", r.Error())
	}
	return nil
}

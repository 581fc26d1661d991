package samplepq

import "github.com/tpptrace/tpptrace/model"

// MaxGPUs is how many distinct GPUs one sink keeps: the rows of further
// GPUs are dropped and counted (Dropped), so that a file naming a new GPU
// in every row cannot make a GPU table as long as itself.
const MaxGPUs = 1 << 16

// gpuKey identifies a sampled GPU; the name is not part of it.
type gpuKey struct {
	host, uuid, bus string
	index           int32
}

// Sink turns rows into a trace's samples as they are read: a GPU's
// identity is kept once in Trace.SampleGPUs, a row as one sample.
type Sink struct {
	T *model.Trace
	// Check, when set, is called after every batch of rows; its error
	// stops the read (the command's memory budget).
	Check   func() error
	ids     map[gpuKey]int32
	last    gpuKey
	lastID  int32
	hasLast bool
	dropped int64
	row     model.GPUSample // the row being decoded (a field, so that it is not allocated per row)
}

// NewSink returns a sink adding to t; the GPUs t already has are found
// by their identity.
func NewSink(t *model.Trace) *Sink {
	s := &Sink{T: t, ids: make(map[gpuKey]int32, len(t.SampleGPUs))}
	for i, g := range t.SampleGPUs {
		s.ids[gpuKey{g.Host, g.UUID, g.BusID, g.Index}] = int32(i)
	}
	return s
}

// AddRows adds rows built in memory.
func (s *Sink) AddRows(rows []Row) {
	for _, r := range rows {
		if id, ok := s.gpu(gpuKey{r.Host, r.UUID, r.BusID, r.GPUIndex}, r.Name); ok {
			s.T.Samples.Append(r.Sample(id))
		}
	}
}

// AddFrom adds the samples of o, another sink, in their order, each GPU
// found or added here as a row naming it would be (the samples of GPUs
// past the first MaxGPUs dropped and counted), and takes o's count of
// dropped rows: as if o's rows had been read into s.
func (s *Sink) AddFrom(o *Sink) {
	t := o.T
	s.Grow(int64(t.Samples.Len()))
	for i := range t.Samples.Len() {
		x := t.Samples.At(i)
		g := &t.SampleGPUs[x.GPU]
		if id, ok := s.gpu(gpuKey{g.Host, g.UUID, g.BusID, g.Index}, g.Name); ok {
			x.GPU = id
			s.T.Samples.Append(x)
		}
	}
	s.dropped += o.TakeDropped()
}

// Grow makes room for n more rows, a hint that is bounded to 4 Mi rows.
func (s *Sink) Grow(n int64) { s.T.Samples.Grow(int(min(max(n, 0), 1<<22))) }

// TakeDropped returns how many rows were dropped since the last call, as
// they named a GPU past the first MaxGPUs.
func (s *Sink) TakeDropped() int64 {
	n := s.dropped
	s.dropped = 0
	return n
}

// gpu returns the index of the GPU k, adding it (named name) when new.
func (s *Sink) gpu(k gpuKey, name string) (int32, bool) {
	if s.hasLast && k == s.last {
		return s.lastID, true
	}
	id, ok := s.ids[k]
	if !ok {
		if len(s.T.SampleGPUs) >= MaxGPUs {
			s.dropped++
			return 0, false
		}
		id = int32(len(s.T.SampleGPUs))
		s.ids[k] = id
		s.T.SampleGPUs = append(s.T.SampleGPUs, model.SampledGPU{Host: k.host, Index: k.index, UUID: k.uuid, BusID: k.bus, Name: name})
	}
	s.last, s.lastID, s.hasLast = k, id, true
	return id, true
}

package sorts

import (
	"fmt"

	"github.com/obsidian-go/obsidian/runtime"
)

// Option configures a Sorter made by New.
type Option func(*config)

// config is what the options set.
type config struct {
	paper  bool
	stream runtime.Stream
}

// Paper makes the Sorter's CountingSort, OccurrenceSort, Histogram, Scan
// and the sorts built on them run the paper's kernels as written (one
// global atomic per key, one thread per value in reconstruct) instead of
// the fast pipeline: for comparing the two. PaperCountingSort and
// PaperOccurrenceSort run them whatever the options.
func Paper() Option { return func(c *config) { c.paper = true } }

// OnStream makes the Sorter queue its work on stream st, a stream of its
// device, instead of the default stream, so that its sorts run in st's
// order and may overlap work on other streams. A method returns once its
// work is queued, except where it returns what the device computed (a
// count, a key range, the result of a range check), which it reads back by
// a copy; copies between host and device wait for every stream. Before
// reading a result on the host, synchronize st or copy it back. Sorters on
// different streams may run at the same time; one Sorter's calls share its
// temporary buffers and so run in its stream's order. nil means the
// default stream.
func OnStream(st runtime.Stream) Option { return func(c *config) { c.stream = st } }

// checkStream returns why the Sorter of dev cannot queue its work on st: an
// empty fill on st, which fails for a stream of another device or a closed
// one.
func checkStream(dev runtime.Device, st runtime.Stream) error {
	if st == nil {
		return nil
	}
	probe, err := runtime.Alloc[uint32](dev, 0)
	if err != nil {
		return fmt.Errorf("sorts: New: %w", err)
	}
	if err := probe.FillOn(st, 0); err != nil {
		return fmt.Errorf("sorts: New: OnStream: %w", err)
	}
	return probe.Free()
}

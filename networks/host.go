package networks

import (
	"errors"
	"fmt"

	"github.com/obsidian-go/obsidian/runtime"
)

// ErrLengthMismatch is the error of an output buffer whose length is not
// the input's.
var ErrLengthMismatch = errors.New("networks: out and in have different lengths")

// Sorter is a sorting network's kernel for one batch length, loaded on a
// device: what a benchmark times, with the compilation done once.
type Sorter struct {
	dev   runtime.Device
	fn    runtime.Function
	alg   Algorithm
	batch int
}

// New builds the kernel of alg for batches of batch keys (see Kernel) and
// loads it on dev.
func New(dev runtime.Device, alg Algorithm, batch int) (*Sorter, error) {
	if dev == nil {
		return nil, errors.New("networks: nil device")
	}
	k, err := Kernel(alg, batch)
	if err != nil {
		return nil, err
	}
	kern, err := k.Build()
	if err != nil {
		return nil, err
	}
	fn, err := dev.Load(kern)
	if err != nil {
		return nil, err
	}
	return &Sorter{dev: dev, fn: fn, alg: alg, batch: batch}, nil
}

// Close releases the sorter: it holds no device memory (the tables of
// VSortTables are constant tables of its kernel's module, loaded with
// it), so Close frees nothing and returns nil.
func (s *Sorter) Close() error { return nil }

// Sort sorts every batch of s's batch length of in into out (a last
// shorter batch too); out and in must be of one length and on s's device,
// and may be the same buffer.
func (s *Sorter) Sort(out, in *runtime.Buffer[uint32]) error {
	switch {
	case out == nil || in == nil:
		return errors.New("networks: nil buffer")
	case out.Len() != in.Len():
		return fmt.Errorf("%w: out has %d elements and in %d", ErrLengthMismatch, out.Len(), in.Len())
	case out.Device() != s.dev || in.Device() != s.dev:
		return fmt.Errorf("networks: buffers on another device than the sorter's %s", s.dev.Name())
	case in.Len() == 0:
		return nil
	}
	args := []any{in, out}
	if algorithms[s.alg].param {
		args = append(args, uint32(s.batch))
	}
	return s.dev.Launch(s.fn, runtime.LaunchConfig{}, args...)
}

// SortBatches sorts every batch of batch keys of in into out with a
// Sorter of alg for batches up to capacity: for
// OddEvenTranspositionParam, whose kernel takes any batch up to its
// capacity, the same kernel serves every batch length.
func (s *Sorter) SortBatches(out, in *runtime.Buffer[uint32], batch int) error {
	if !algorithms[s.alg].param && batch != s.batch {
		return fmt.Errorf("networks: batch %d for a %v sorter of batch %d (only %v takes other batch lengths)",
			batch, s.alg, s.batch, OddEvenTranspositionParam)
	}
	if batch < 1 || batch > s.batch {
		return fmt.Errorf("networks: batch %d outside [1, %d], the sorter's capacity", batch, s.batch)
	}
	t := *s
	t.batch = batch
	return t.Sort(out, in)
}

// Sort sorts every batch of batch keys of in into out with alg on dev: New
// then Sorter.Sort, compiling the kernel (through the device's cache) on
// every call.
func Sort(dev runtime.Device, out, in *runtime.Buffer[uint32], batch int, alg Algorithm) error {
	s, err := New(dev, alg, batch)
	if err != nil {
		return err
	}
	defer s.Close()
	return s.Sort(out, in)
}

package sorts_test

import (
	"encoding/binary"
	"math"
	"sync"
	"testing"

	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// fuzzRadix is the Sorter FuzzRadixSort shares between its inputs: tiles
// of 128 keys on a CPU evaluator.
var fuzzRadix struct {
	once sync.Once
	dev  runtime.Device
	s    *sorts.Sorter
	err  error
}

// FuzzRadixSort sorts fuzzed float64 keys (at most 600, any bits: NaNs,
// -0, subnormals) and their float32 halves by SortSlice, largest first when
// the input's length is odd, and checks them bit for bit against
// totalOrder.
func FuzzRadixSort(f *testing.F) {
	word := func(ks ...uint64) []byte {
		b := make([]byte, 8*len(ks))
		for i, k := range ks {
			binary.LittleEndian.PutUint64(b[8*i:], k)
		}
		return b
	}
	f.Add(word(0, 1<<63, 0x7ff8000000000001, 0xfff8000000000000, 5))
	f.Add(word(math.Float64bits(-1), math.Float64bits(1), math.Float64bits(math.Inf(-1))))
	f.Add(append(word(math.Float64bits(-0.5), 0x7ff0000000000001, 3, math.Float64bits(-0.5)), 1))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, raw []byte) {
		fuzzRadix.once.Do(func() {
			fuzzRadix.dev = runtime.CPU()
			if fuzzRadix.s, fuzzRadix.err = sorts.New(fuzzRadix.dev); fuzzRadix.err == nil {
				fuzzRadix.s.SetRadixShape(kernels.RadixShape{Threads: 64, PerThread: 2, Bits: 8, Window: 3})
			}
		})
		if fuzzRadix.err != nil {
			t.Fatal(fuzzRadix.err)
		}
		n := min(len(raw)/8, 600)
		wide, narrow := make([]float64, n), make([]float32, n)
		for i := range wide {
			b := binary.LittleEndian.Uint64(raw[8*i:])
			wide[i], narrow[i] = math.Float64frombits(b), math.Float32frombits(uint32(b))
		}
		descending := len(raw)%2 == 1
		got, err := sorts.SortSlice(fuzzRadix.s, wide, orderOptions(descending)...)
		if err != nil {
			t.Fatal(err)
		}
		if msg := sameBits("SortSlice of float64", got, sortedRef(wide, descending)); msg != "" {
			t.Error(msg)
		}
		got32, err := sorts.SortSlice(fuzzRadix.s, narrow, orderOptions(descending)...)
		if err != nil {
			t.Fatal(err)
		}
		if msg := sameBits("SortSlice of float32", got32, sortedRef(narrow, descending)); msg != "" {
			t.Error(msg)
		}
	})
}

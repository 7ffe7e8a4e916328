package kernels_test

import (
	"math"
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// radixKernels returns the radix sort's kernels for keys of type K with
// values of every type, in the default shape for K, in both orders.
func radixKernels[K kernels.Key]() []*dsl.Kernel {
	shape := kernels.RadixShapeFor(dsl.TypeOf[K]().Size(), 0, 1<<20)
	var ks []*dsl.Kernel
	for _, o := range []kernels.Order{kernels.Ascending, kernels.Descending} {
		ks = append(ks, kernels.RadixHistogramKernel[K](shape, kernels.KeysOnly, o),
			kernels.RadixHistogramKernel[K](shape, kernels.Positions, o),
			kernels.RadixPassKernel[K, uint32](shape, kernels.KeysOnly, o), kernels.RadixPassKernel[K, uint32](shape, kernels.Positions, o),
			kernels.RadixPassKernel[K, uint32](shape, kernels.Pairs, o), kernels.RadixPassKernel[K, int32](shape, kernels.Pairs, o),
			kernels.RadixPassKernel[K, float32](shape, kernels.Pairs, o), kernels.RadixPassKernel[K, uint64](shape, kernels.Pairs, o),
			kernels.RadixPassKernel[K, int64](shape, kernels.Pairs, o), kernels.RadixPassKernel[K, float64](shape, kernels.Pairs, o))
	}
	return ks
}

// TestRadixKernelsBuild builds the radix sort's kernels of every key and
// value type and checks that their names are distinct.
func TestRadixKernelsBuild(t *testing.T) {
	var ks []*dsl.Kernel
	ks = append(ks, radixKernels[uint32]()...)
	ks = append(ks, radixKernels[int32]()...)
	ks = append(ks, radixKernels[float32]()...)
	ks = append(ks, radixKernels[uint64]()...)
	ks = append(ks, radixKernels[int64]()...)
	ks = append(ks, radixKernels[float64]()...)
	names := map[string]bool{}
	for _, k := range ks {
		built, err := k.Build()
		if err != nil {
			t.Errorf("%s: %v", k.Name(), err)
			continue
		}
		if names[built.Name] {
			t.Errorf("two kernels are named %s", built.Name)
		}
		names[built.Name] = true
	}
}

// TestRadixShapeChecked checks that a bad shape is an error of the kernel
// naming what is wrong.
func TestRadixShapeChecked(t *testing.T) {
	for _, c := range []struct {
		shape kernels.RadixShape
		want  string
	}{
		{kernels.RadixShape{Threads: 48, PerThread: 4, Bits: 8}, "48 threads per block"},
		{kernels.RadixShape{Threads: 64, PerThread: 0, Bits: 8}, "0 keys per thread"},
		{kernels.RadixShape{Threads: 64, PerThread: 4, Bits: 9}, "digits of 9 bits"},
		{kernels.RadixShape{Threads: 64, PerThread: 4, Bits: 8, Window: 33}, "a look-back window of 33 tiles"},
	} {
		for _, k := range []*dsl.Kernel{kernels.RadixHistogramKernel[uint32](c.shape, kernels.KeysOnly, kernels.Ascending), kernels.RadixPassKernel[uint32, uint32](c.shape, kernels.KeysOnly, kernels.Ascending)} {
			_, err := k.Build()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s of shape %+v: error %v, want one saying %q", k.Name(), c.shape, err, c.want)
			}
		}
	}
}

// TestUniqueKernelsBuild builds the unique kernels of every key type.
func TestUniqueKernelsBuild(t *testing.T) {
	ks := []*dsl.Kernel{kernels.UniqueCountsKernel[uint32](), kernels.UniqueKernel[uint32](),
		kernels.UniqueCountsKernel[int32](), kernels.UniqueKernel[int32](),
		kernels.UniqueCountsKernel[float32](), kernels.UniqueKernel[float32](),
		kernels.UniqueCountsKernel[uint64](), kernels.UniqueKernel[uint64](),
		kernels.UniqueCountsKernel[int64](), kernels.UniqueKernel[int64](),
		kernels.UniqueCountsKernel[float64](), kernels.UniqueKernel[float64]()}
	for _, k := range ks {
		if _, err := k.Build(); err != nil {
			t.Errorf("%s: %v", k.Name(), err)
		}
	}
}

// sizedKernels builds a kernel of a shape for keys of 4 or 8 bytes, alone
// or with values: keys4 and pairs4 for 4-byte keys, keys8 and pairs8 for
// 8-byte keys.
type sizedKernels struct {
	keys4, pairs4, keys8, pairs8 func(kernels.RadixShape) *dsl.Kernel
}

// of returns the kernel of shape for keys of keyBytes bytes with values of
// valueBytes bytes (0: none).
func (sk sizedKernels) of(keyBytes, valueBytes int, shape kernels.RadixShape) *dsl.Kernel {
	build := map[[2]bool]func(kernels.RadixShape) *dsl.Kernel{
		{false, false}: sk.keys4, {false, true}: sk.pairs4, {true, false}: sk.keys8, {true, true}: sk.pairs8,
	}[[2]bool{keyBytes == 8, valueBytes > 0}]
	return build(shape)
}

// passKernels are the pass kernels TestRadixShapesForEverySize builds.
var passKernels = sizedKernels{
	keys4: func(sh kernels.RadixShape) *dsl.Kernel {
		return kernels.RadixPassKernel[uint32, uint32](sh, kernels.KeysOnly, kernels.Ascending)
	},
	pairs4: func(sh kernels.RadixShape) *dsl.Kernel {
		return kernels.RadixPassKernel[uint32, uint64](sh, kernels.Pairs, kernels.Ascending)
	},
	keys8: func(sh kernels.RadixShape) *dsl.Kernel {
		return kernels.RadixPassKernel[uint64, uint64](sh, kernels.KeysOnly, kernels.Ascending)
	},
	pairs8: func(sh kernels.RadixShape) *dsl.Kernel {
		return kernels.RadixPassKernel[uint64, uint64](sh, kernels.Pairs, kernels.Ascending)
	},
}

// blockKernels are the block sort kernels TestRadixBlockShapesForEverySize
// builds.
var blockKernels = sizedKernels{
	keys4: func(sh kernels.RadixShape) *dsl.Kernel {
		return kernels.RadixBlockKernel[uint32, uint32](sh, kernels.KeysOnly, kernels.Ascending)
	},
	pairs4: func(sh kernels.RadixShape) *dsl.Kernel {
		return kernels.RadixBlockKernel[float32, int64](sh, kernels.Pairs, kernels.Ascending)
	},
	keys8: func(sh kernels.RadixShape) *dsl.Kernel {
		return kernels.RadixBlockKernel[int64, uint64](sh, kernels.KeysOnly, kernels.Ascending)
	},
	pairs8: func(sh kernels.RadixShape) *dsl.Kernel {
		return kernels.RadixBlockKernel[uint64, float64](sh, kernels.Pairs, kernels.Ascending)
	},
}

// TestRadixShapesForEverySize checks that the shape RadixShapeFor gives
// keys of 4 and 8 bytes, alone or with values of 4 or 8 bytes, is valid
// for any count of keys, on either side of each count where it changes,
// and that its pass kernels build.
func TestRadixShapesForEverySize(t *testing.T) {
	for _, keyBytes := range []int{4, 8} {
		for _, valueBytes := range []int{0, 4, 8} {
			for _, n := range []int{0, 1, 2048, 1 << 16, 1<<16 + 1, 1 << 20, 1<<20 + 1, math.MaxUint32} {
				shape := kernels.RadixShapeFor(keyBytes, valueBytes, n)
				if err := shape.Check(); err != nil {
					t.Errorf("%d keys of %d bytes, values of %d: %v", n, keyBytes, valueBytes, err)
					continue
				}
				if _, err := passKernels.of(keyBytes, valueBytes, shape).Build(); err != nil {
					t.Errorf("%d keys of %d bytes, values of %d, shape %+v: %v", n, keyBytes, valueBytes, shape, err)
				}
			}
		}
	}
}

// TestBlockDigitBits checks BlockDigitBits for every sort of 1 to 64 bits:
// a digit of 4, 6 or 8 bits, in as few passes as digits of RadixBits bits
// take, and the narrowest of those that do; and that the block sort's
// kernels of each such width build.
func TestBlockDigitBits(t *testing.T) {
	widths := map[int]bool{}
	for bits := 1; bits <= 64; bits++ {
		w := kernels.BlockDigitBits(bits)
		passes, fewest := (bits+w-1)/w, (bits+kernels.RadixBits-1)/kernels.RadixBits
		narrower := 0
		for _, v := range []int{4, 6} {
			if v < w && (bits+v-1)/v == fewest {
				narrower = v
			}
		}
		if w != 4 && w != 6 && w != kernels.RadixBits || passes != fewest || narrower != 0 {
			t.Errorf("BlockDigitBits(%d) = %d: %d passes, want %d of the narrowest of 4, 6 and 8 bits", bits, w, passes, fewest)
		}
		shape, ok := kernels.RadixBlockShapeFor(8, 0, 1000, bits)
		if !ok || shape.Bits != w {
			t.Errorf("RadixBlockShapeFor of %d bits: %+v, %v; want digits of %d bits", bits, shape, ok, w)
		}
		widths[w] = true
	}
	for w := range widths {
		shape := kernels.RadixShape{Threads: 128, PerThread: 8, Bits: w}
		if _, err := blockKernels.of(4, 4, shape).Build(); err != nil {
			t.Errorf("block sort of %d-bit digits: %v", w, err)
		}
	}
}

// blockShape is a block sort shape of the package's tests.
var blockShape = kernels.RadixShape{Threads: 256, PerThread: 8, Bits: kernels.RadixBits}

// TestRadixBlockShapesForEverySize checks RadixBlockShapeFor for keys of 4
// and 8 bytes, alone or with values of 4 or 8 bytes: a valid shape whose
// tile takes the keys, up to a largest count past which it declines
// (BlockSortMaxKeys for uint32 keys alone); and that the kernels of every
// shape build.
func TestRadixBlockShapesForEverySize(t *testing.T) {
	var counts []int // 1, 2, 3, then each power of two up to 2^16 and its neighbours
	for p := 2; p <= 1<<16; p *= 2 {
		counts = append(counts, p-1, p, p+1)
	}
	for _, keyBytes := range []int{4, 8} {
		for _, valueBytes := range []int{0, 4, 8} {
			largest, declined := 0, 0
			for _, n := range counts {
				shape, ok := kernels.RadixBlockShapeFor(keyBytes, valueBytes, n, 8*keyBytes)
				if !ok {
					declined = max(declined, n)
					continue
				}
				if declined != 0 {
					t.Errorf("keys of %d bytes, values of %d: %d sort in one block, %d do not", keyBytes, valueBytes, n, declined)
				}
				largest = n
				if err := shape.Check(); err != nil || shape.Tile() < n {
					t.Errorf("%d keys of %d bytes, values of %d: shape %+v (%v)", n, keyBytes, valueBytes, shape, err)
					continue
				}
				if _, err := blockKernels.of(keyBytes, valueBytes, shape).Build(); err != nil {
					t.Errorf("%d keys of %d bytes, values of %d, shape %+v: %v", n, keyBytes, valueBytes, shape, err)
				}
			}
			if largest == 0 || largest >= 1<<16 {
				t.Errorf("keys of %d bytes, values of %d: the block sort takes up to %d keys", keyBytes, valueBytes, largest)
			}
		}
	}
	if _, ok := kernels.RadixBlockShapeFor(4, 0, kernels.BlockSortMaxKeys, 32); !ok {
		t.Errorf("BlockSortMaxKeys (%d) uint32 keys do not sort in one block", kernels.BlockSortMaxKeys)
	}
	if _, ok := kernels.RadixBlockShapeFor(4, 0, kernels.BlockSortMaxKeys+1, 32); ok {
		t.Errorf("BlockSortMaxKeys+1 (%d) uint32 keys sort in one block", kernels.BlockSortMaxKeys+1)
	}
}

// TestRadixShapeCheck checks that a shape the kernels cannot be built
// with is refused by Check, and by the kernels built with it, naming
// what is wrong.
func TestRadixShapeCheck(t *testing.T) {
	good := kernels.RadixShape{Threads: 256, PerThread: 8, Bits: 8}
	for _, c := range []struct {
		change func(*kernels.RadixShape)
		want   string
	}{
		{func(s *kernels.RadixShape) { s.Threads = 100 }, "100 threads per block"},
		{func(s *kernels.RadixShape) { s.PerThread = 33 }, "33 keys per thread"},
		{func(s *kernels.RadixShape) { s.Bits = 9 }, "digits of 9 bits"},
		{func(s *kernels.RadixShape) { s.Window = -1 }, "a look-back window of -1 tiles"},
		{func(s *kernels.RadixShape) { s.MinBlocks = 9 }, "9 blocks of 256 threads"},
		{func(s *kernels.RadixShape) { s.Rank = 2 }, "rank 2, want RankByVotes or RankByCounters"},
		{func(s *kernels.RadixShape) { s.Unroll = -1 }, "write loops unrolled by -1, want 0 to 64"},
		{func(s *kernels.RadixShape) { s.Unroll = 65 }, "write loops unrolled by 65, want 0 to 64"},
		{func(s *kernels.RadixShape) { s.Rank = kernels.RankByCounters }, "digits of 8 bits ranked by counters, want 1 to 5"},
	} {
		shape := good
		c.change(&shape)
		err := shape.Check()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Check of %+v: %v, want an error naming %q", shape, err, c.want)
		}
		for _, k := range []*dsl.Kernel{kernels.RadixBlockKernel[uint32, uint32](shape, kernels.KeysOnly, kernels.Ascending),
			kernels.RadixPassKernel[uint32, uint32](shape, kernels.KeysOnly, kernels.Ascending)} {
			if _, err := k.Build(); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s of %+v builds with %v, want an error naming %q", k.Name(), shape, err, c.want)
			}
		}
	}
	if err := good.Check(); err != nil {
		t.Errorf("Check of %+v: %v", good, err)
	}
}

// TestRadixOrderCheck checks that an order outside Ascending and
// Descending is named by Check and by every radix kernel built with it.
func TestRadixOrderCheck(t *testing.T) {
	for _, o := range []kernels.Order{kernels.Ascending, kernels.Descending} {
		if err := o.Check(); err != nil {
			t.Errorf("Check of order %d: %v", o, err)
		}
	}
	const bad = kernels.Order(2)
	const want = "order 2: want Ascending (0) or Descending (1)"
	if err := bad.Check(); err == nil || err.Error() != want {
		t.Errorf("Check of order 2: %v, want %q", err, want)
	}
	shape := kernels.RadixShapeFor(4, 0, 1<<20)
	block := kernels.RadixShape{Threads: 256, PerThread: 8, Bits: 8}
	for _, k := range []*dsl.Kernel{kernels.RadixHistogramKernel[uint32](shape, kernels.KeysOnly, bad),
		kernels.RadixPassKernel[float32, uint32](shape, kernels.Pairs, bad),
		kernels.RadixBlockKernel[int64, uint32](block, kernels.Positions, bad),
		kernels.RankSortKernel[uint32, uint32](8, kernels.KeysOnly, bad)} {
		if _, err := k.Build(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s builds with %v, want an error naming %q", k.Name(), err, want)
		}
	}
}

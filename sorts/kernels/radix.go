package kernels

import (
	"cmp"
	"fmt"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/check"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
)

// The radix sort (Onesweep: Adinets and Merrill, "Onesweep: A Faster Least
// Significant Digit Radix Sort for GPUs", 2022; CUB's DeviceRadixSort for
// large inputs): least significant digit first, stable, a digit of
// RadixBits bits per pass by default.
//
// RadixHistogramKernel reads the keys once and counts, for every pass, how
// many keys have each digit: each block counts its part of the keys in
// shared memory and adds its counts to the global table with one atomic
// per digit and pass. Each pass is then one launch of RadixPassKernel: a
// block takes a tile of keys (BlockTile: block i takes tile i, as the
// blocks start in index order), which its threads load into registers
// (arrays.Held, as CUB's threads hold their items), ranks its keys by
// digit (BlockMultisplitHeld: the stable multisplit of the tile, each
// key's rank within its warp kept in a register) and publishes its
// digits' counts for the look-back (LookBackPublish, one thread per
// digit); the first tile publishes them raised by the pass's global offset
// of each digit (ScanExclusive of the pass's row of the histogram). The
// keys then move to their ranks in shared memory (a pair's values, read
// into registers only then, follow), and only then does the
// block look back over the tiles before it for the count of each digit
// there (Prefixes, in the same launch), which gives each digit's place in
// the whole output: meanwhile more of those tiles have published their
// own, so the walks back are shorter. The keys leave the block in rank
// order, so that consecutive threads write consecutive addresses within a
// digit's run; values follow their keys. A pass in which every key has
// the same digit (equal keys, or bits above the keys' range: the pass's
// count of the first key's digit is n) would keep their order, and is
// skipped: each block finds from the histogram which passes those are,
// and from that where its pass reads the keys and where it writes them
// (planPasses), so that the last pass that runs leaves them in the output.
//
// Keys are sorted by their bits in an order-preserving form (CUB's
// "twiddle"), applied when a pass loads a key and undone when it stores
// it: unsigned keys as they are, signed ones with the sign bit flipped,
// floats in IEEE 754 totalOrder (a negative float with all its bits
// flipped, a positive one with its sign bit flipped), so that -NaN < -Inf
// < ... < -0 < +0 < ... < +Inf < +NaN, NaNs ordered by their payloads.
// Every radix kernel takes an Order: in Descending order each digit counts
// down (2^w-1-d for a digit d of w bits), so that the largest key comes
// first while the keys move as in an ascending sort, stably.

// RadixBits is the width of the radix sort's digits unless a kernel is
// built with another: 8 bits, 256 digits.
const RadixBits = 8

// Key is the set of key types the radix sort takes.
type Key interface {
	uint32 | int32 | float32 | uint64 | int64 | float64
}

// Value is the set of value types that the radix sort's pairs carry.
type Value interface {
	uint32 | int32 | float32 | uint64 | int64 | float64
}

// RadixShape is the shape of the blocks of a radix sort pass: Threads
// threads, each holding PerThread keys of the block's tile.
type RadixShape struct {
	Threads, PerThread int
	// Bits is the width of a digit, 1 to arrays.MaxDigitBits.
	Bits int
	// Window is the number of tiles whose look-back words a pass reads at
	// once (arrays.LookBackWindow), up to arrays.MaxLookBackWindow; 0
	// reads one at a time.
	Window int
	// MinBlocks is the number of blocks of a pass that each multiprocessor
	// must be able to hold at once (dsl.Kernel.MinBlocks), which bounds the
	// registers the threads hold their keys and values in; 0 leaves them
	// to the compiler.
	MinBlocks int
	// Rank is how a block ranks its keys by digit.
	Rank RadixRank
	// Unroll is the factor a pass's loops that write a tile out are
	// unrolled by (dsl.Block.ForAllUnrolled), up to ir.MaxUnroll; 0
	// leaves it to the compiler.
	Unroll int
	// Unpadded lays a pass's sorted tile out in shared memory at its
	// ranks, without arrays.BankPadded's slot of padding every 32 words.
	// The padding keeps a warp's lanes in distinct banks when their ranks
	// are apart by a multiple of a power of two, as they are for sorted
	// keys: a tile of them holds Tile/Digits keys of each low digit, and
	// with 36 (4 × 9) four lanes share a bank. Where that count is odd or
	// not a whole number, the padding only costs an instruction a key at
	// each of the tile's accesses.
	Unpadded bool
}

// slot returns the place of the element of rank r of a pass's sorted tile
// in shared memory.
func (sh RadixShape) slot(r dsl.U32) dsl.U32 {
	if sh.Unpadded {
		return r
	}
	return arrays.BankPadded(r)
}

// slots returns the length of the shared array that holds a pass's sorted
// tile.
func (sh RadixShape) slots() int {
	if sh.Unpadded {
		return sh.Tile()
	}
	return arrays.BankPaddedLen(sh.Tile())
}

// RadixRank is how a block of the radix sort ranks its tile's keys by
// digit.
type RadixRank int

const (
	// RankByVotes holds the keys warp-striped (arrays.NewHeld) and ranks
	// them by votes (arrays.BlockMultisplitHeld): per key a vote per bit
	// of the digit and, for the lowest lane of each digit, a shared
	// atomic; a scan of a counter per digit and warp.
	RankByVotes RadixRank = iota
	// RankByCounters holds the keys blocked (arrays.NewHeldBlocked) and
	// ranks them by per-thread counters (arrays.BlockMultisplitCounted):
	// per key a read and a write of the thread's counter of its digit; a
	// scan of 2^Bits words per thread. Digits of up to
	// arrays.MaxCountedBits bits.
	RankByCounters
	radixRanks // the number of ranks
)

// newTile allocates in b the registers of a tile of n elements of type T,
// held as the shape's Rank needs them.
func newTile[T dsl.Scalar](b *dsl.Block, sh RadixShape, n dsl.U32) arrays.Held[T] {
	if sh.Rank == RankByCounters {
		return arrays.NewHeldBlocked[T](b, sh.PerThread, n)
	}
	return arrays.NewHeld[T](b, sh.PerThread, n)
}

// rankTile records in b the multisplit of the held keys by digit, as the
// shape's Rank ranks them.
func rankTile[U uint32 | uint64](b *dsl.Block, sh RadixShape, keys arrays.Held[U], digit func(dsl.Exp[U]) dsl.U32) arrays.Multisplit {
	if sh.Rank == RankByCounters {
		return arrays.BlockMultisplitCounted(b, sh.Bits, keys, digit)
	}
	return arrays.BlockMultisplitHeld(b, sh.Bits, keys, digit)
}

// Tile returns the number of keys of a tile: Threads × PerThread.
func (sh RadixShape) Tile() int { return sh.Threads * sh.PerThread }

// Digits returns the number of digits of a pass: 2^Bits.
func (sh RadixShape) Digits() int { return 1 << sh.Bits }

// Passes returns the number of passes that sort keys of keyBits bits.
func (sh RadixShape) Passes(keyBits int) int { return (keyBits + sh.Bits - 1) / sh.Bits }

// Check returns why the shape cannot be built, or nil.
func (sh RadixShape) Check() error {
	switch {
	case sh.Threads < ir.WarpSize || sh.Threads > 1024 || sh.Threads%ir.WarpSize != 0:
		return fmt.Errorf("radix shape: %d threads per block, want a multiple of %d from %d to 1024", sh.Threads, ir.WarpSize, ir.WarpSize)
	case sh.PerThread < 1 || sh.PerThread > 32:
		return fmt.Errorf("radix shape: %d keys per thread, want 1 to 32", sh.PerThread)
	case sh.Bits < 1 || sh.Bits > arrays.MaxDigitBits:
		return fmt.Errorf("radix shape: digits of %d bits, want 1 to %d", sh.Bits, arrays.MaxDigitBits)
	case sh.Window < 0 || sh.Window > arrays.MaxLookBackWindow:
		return fmt.Errorf("radix shape: a look-back window of %d tiles, want 0 to %d", sh.Window, arrays.MaxLookBackWindow)
	case sh.MinBlocks < 0 || sh.MinBlocks*sh.Threads > check.MaxThreadsPerMultiprocessor:
		return fmt.Errorf("radix shape: %d blocks of %d threads per multiprocessor, want 0 to %d threads", sh.MinBlocks,
			sh.Threads, check.MaxThreadsPerMultiprocessor)
	case sh.Rank < 0 || sh.Rank >= radixRanks:
		return fmt.Errorf("radix shape: rank %d, want RankByVotes or RankByCounters", sh.Rank)
	case sh.Unroll < 0 || sh.Unroll > ir.MaxUnroll:
		return fmt.Errorf("radix shape: write loops unrolled by %d, want 0 to %d", sh.Unroll, ir.MaxUnroll)
	case sh.Rank == RankByCounters && sh.Bits > arrays.MaxCountedBits:
		return fmt.Errorf("radix shape: digits of %d bits ranked by counters, want 1 to %d", sh.Bits, arrays.MaxCountedBits)
	}
	return nil
}

// RadixShapeFor returns the shape the radix sort uses for n keys of
// keyBytes bytes with values of valueBytes bytes (0 for keys alone, 4 for
// an argsort's positions): the first row of radixShapes that takes them.
func RadixShapeFor(keyBytes, valueBytes, n int) RadixShape {
	for _, r := range radixShapes {
		if r.keyBytes == keyBytes && valueBytes <= r.valueBytes && (r.upTo == 0 || n <= r.upTo) {
			return r.shape
		}
	}
	return radixShapes[len(radixShapes)-1].shape // unreachable: the last row takes any keys
}

// radixShapes are the radix pass's shapes by the size of the keys, of the
// values (at most valueBytes) and the number of keys (up to upTo; 0: any).
// The threads hold their keys, ranks and values in registers, so that the
// wider they are the fewer each thread holds; the shapes ask for two
// blocks per multiprocessor (64 K registers: 64 each in blocks of 512),
// except 4-byte keys alone past 2^22 keys, in three blocks of 384 threads
// (56 registers each, as CUB's Onesweep for float keys; its blocks of 512
// threads spill some of their keys to local memory). Up to 2^22 keys the
// larger tiles were faster for uint32 keys (two runs each, every bit:
// 2^21 keys 0.097–0.100 ms against 0.104–0.105, 2^22 0.151–0.153 against
// 0.155–0.166), from 2^23 the smaller (0.257–0.258 against 0.251–0.252;
// 2^24 0.448–0.452 against 0.442–0.444).
// Measured on an H200 (TestGPURadixShapes, 2^25 random keys over their
// bits, host included): uint32 keys 512×18 0.871 ms, 512×16 0.888, 384×20
// 0.922, 256×16 (three blocks) 0.969, 512×24 1.152 (spilling); in a later
// pair of calls, three blocks of 384×19 0.821 and 384×18 0.819 against
// 0.837 for 512×18 (two blocks of 384×19 0.874; 512×19 0.820 and 512×17
// 0.860 in the other call), and float32 keys 384×19 (three blocks) 0.823
// against 0.869 (512×17 0.868, 512×19 0.891); pairs of
// uint32 keys and values 512×18 1.050 and 1.058 in two rounds, 448×18
// 1.068 and 1.068, 384×22 1.090 and 1.092, 384×23 1.094 and 1.096,
// 512×16 1.095 to 1.130 in four, 384×20 1.105 and 1.106, 512×20 1.556,
// later 512×17 1.064 against 1.070 and three blocks of 384×16 1.195 (so
// that 32-bit values keep blocks of 512 threads); uint64 keys
// 448×14 2.230 and 2.232 in two rounds, 512×12 2.261 and 2.264 (2.191 in
// an earlier run), 448×13 2.295, 384×16 2.219 (earlier), 480×13 2.438,
// 512×14 2.469 and 2.492, 512×16 2.564, 256×16 (three blocks) 2.626,
// 512×13 2.661. Small sorts take smaller tiles, which give the GPU more
// blocks: 2^16 keys 256×8 0.048 ms against 0.059 for 512×16; 2^20 keys 512×8
// 0.074 against 0.078; uint64 keys alone, three rounds each: 2^14 keys
// 256×8 0.084–0.087 ms against 0.095–0.102 for 512×12 and 0.099–0.104
// for 448×14, 2^16 keys 0.078–0.087 against 0.103–0.106 (512×8
// 0.087–0.092), 2^18 keys 0.093–0.100 against 0.110–0.114 (512×8
// 0.102–0.106), 2^20 keys 512×8 0.142–0.147 against 0.154–0.157 (448×14
// 0.153–0.160, 256×8 0.179–0.184); pairs of uint64 keys with uint32 or
// uint64 values, three rounds each: 256×8 against 384×12 at 2^14 keys
// 0.072–0.095 ms against 0.094–0.098 (uint64 values 0.074–0.086 against
// 0.097–0.120), 2^16 0.087–0.101 against 0.102–0.106 (0.090–0.103
// against 0.113–0.134), 2^18 0.100–0.104 against 0.112–0.116
// (0.104–0.107 against 0.119–0.120); at 2^20 keys 512×8 and 384×12 tie
// (0.159–0.164 and 0.160–0.163). Pairs with a 64-bit key or value
// (TestGPURadixPairsShapes, 2^25 keys): uint64 keys with uint32 values
// 384×12 2.980 ms, 448×10 3.004, 512×12 3.019, 512×8 3.145; uint64 keys
// and values 384×12 3.497, 448×10 3.533, 512×8 3.626; uint32 keys with
// uint64 values 384×14 1.415, 512×12 1.419, 384×12 1.489, 512×8 1.564.
// Once a thread's partial ranks took half the registers
// (arrays.BlockMultisplitHeld), larger tiles won for 64-bit keys with
// values (one run): uint64 keys with uint32 values 384×15 2.724 ms,
// 512×12 2.735, 384×14 2.793, 384×12 2.930; uint64 keys and values 384×15
// 3.314, 512×11 3.318, 384×12 3.454, 512×12 3.923; uint32 keys with uint64
// values 384×15 1.384, 512×12 1.390, 512×11 1.390. After the packing,
// larger tiles also won for keys alone and for uint64 keys with uint32
// values (2^25 keys, two calls, the old shape timed first and last in each):
// uint32 keys 384×23 (three blocks) 0.731 ms against 0.783–0.786 for
// 384×19, 384×21 0.753, 384×25 0.757, 384×27 0.792, 512×24 (two blocks)
// 0.760, 320×28 0.759; float32 keys 384×23 0.746–0.752 against 0.798,
// 384×25 0.758; uint64 keys 384×20 (two blocks) 1.966–1.977 against
// 2.139–2.173 for 448×14, 320×24 1.991, 448×18 2.002, 384×22 2.017;
// uint64 keys with uint32 values 384×17 2.660–2.688 against 2.726–2.746
// for 384×15, 320×20 2.701, 384×19 2.732. Pairs of uint32 keys and values
// tied: 512×18 1.036–1.059, 448×20 1.041, 384×24 1.042, 512×20 1.097.
// Once a pass with 8-byte keys wrote its values after its keys (see
// RadixPassKernel), uint64 keys with uint32 values took 2.516 ms in 384×20
// against 2.584 in 384×17. Small sorts, re-timed after the packing
// (uint32 keys, medians of 41, one call): at 2^16 keys 256×8 reading four
// look-back words at once with four blocks a multiprocessor took 0.0399
// ms over every bit against 0.0430 reading one at a time (17 bits 0.0316
// against 0.0340, 8 bits 0.0187 against 0.0192, 24 bits 0.0352 against
// 0.0347, pairs 0.0436 against 0.0453); 512×8, 384×8 (three blocks),
// 256×12 (four) and 384×12 to 384×23 were within 3% or slower at 2^18,
// 1000003 and 2^20 keys, and 512×18 and 384×23 within 1% of each other at
// 2^21 keys. Write loops unrolled by 2, each thread counting its rounds
// of a full tile (2^25 keys, medians of 21, two rounds, obsbench): pairs
// of uint32 keys and values 1.012 ms against 1.039 left to the compiler
// (skewed keys 0.983–0.985 against 1.023–1.033, unique 0.969–0.976
// against 0.990–1.002), uint64 keys 1.914 against 1.980, uint64 keys with
// uint32 values 2.499 against 2.515–2.534; uint32 keys alone 0.736
// against 0.727 (by 3, 0.723, within the spread), so they keep the
// compiler's choice. Unrolled by 2, two blocks of 384×23 (CUB's tile for
// pairs) took random pairs of uint32 keys and values in 1.014 ms at 2^25
// keys against 1.016–1.022 for 512×18 (384×24 1.012, 448×20 1.019, 384×22
// 1.028, 512×16 1.045, 448×18 1.051, 512×20 1.060; 512×18 unrolled by 3
// 1.034), 3.867 at 2^27 against 3.915–3.917; but sorted and reversed
// pairs 0.976–0.977 against 0.922–0.926, so pairs keep 512×18. A tile of
// 384×23 holds 34.5 keys of each digit, so that sorted keys fall in
// distinct banks without padding (RadixShape.Unpadded): unpadded, 4-byte
// keys alone took 0.721–0.727 ms over every bit at 2^25 keys against
// 0.727–0.736 padded, sorted keys 0.687–0.694 against 0.697–0.711,
// reversed 0.688–0.694 against 0.696–0.705, unique 0.706–0.708 against
// 0.714–0.716 (four runs each, the builds alternated twice in one call);
// pairs in 384×23 unpadded took random keys in 1.014 ms against
// 1.020–1.024 for 512×18 padded (3.865 against 3.919–3.927 at 2^27
// keys) but sorted and reversed keys in 0.979–0.984 against 0.904–0.915,
// so pairs keep 512×18 and its padding (36 keys of each digit: without
// it, sorted keys would put four lanes in each bank).
var radixShapes = []struct {
	keyBytes, valueBytes, upTo int
	shape                      RadixShape
}{
	{keyBytes: 4, valueBytes: 8, upTo: 1 << 16, shape: RadixShape{Threads: 256, PerThread: 8, Bits: RadixBits, Window: 4, MinBlocks: 4}},
	{keyBytes: 4, valueBytes: 8, upTo: 1 << 20, shape: RadixShape{Threads: 512, PerThread: 8, Bits: RadixBits, Window: 4, MinBlocks: 2}},
	{keyBytes: 4, valueBytes: 4, upTo: 1 << 22, shape: RadixShape{Threads: 512, PerThread: 18, Bits: RadixBits, Window: 4, MinBlocks: 2}},
	{keyBytes: 4, shape: RadixShape{Threads: 384, PerThread: 23, Bits: RadixBits, Window: 4, MinBlocks: 3, Unpadded: true}},
	{keyBytes: 4, valueBytes: 4, shape: RadixShape{Threads: 512, PerThread: 18, Bits: RadixBits, Window: 4, MinBlocks: 2, Unroll: 2}},
	{keyBytes: 4, valueBytes: 8, shape: RadixShape{Threads: 512, PerThread: 12, Bits: RadixBits, Window: 4, MinBlocks: 2}},
	{keyBytes: 8, valueBytes: 8, upTo: 1 << 18, shape: RadixShape{Threads: 256, PerThread: 8, Bits: RadixBits, Window: 4, MinBlocks: 2}},
	{keyBytes: 8, upTo: 1 << 20, shape: RadixShape{Threads: 512, PerThread: 8, Bits: RadixBits, Window: 4, MinBlocks: 2}},
	{keyBytes: 8, shape: RadixShape{Threads: 384, PerThread: 20, Bits: RadixBits, Window: 4, MinBlocks: 2, Unroll: 2}},
	{keyBytes: 8, valueBytes: 4, shape: RadixShape{Threads: 384, PerThread: 20, Bits: RadixBits, Window: 4, MinBlocks: 2, Unroll: 2}},
	{keyBytes: 8, valueBytes: 8, shape: RadixShape{Threads: 384, PerThread: 15, Bits: RadixBits, Window: 4, MinBlocks: 2}},
}

// radixHistogramBatch is the number of keys a thread of
// RadixHistogramKernel loads before counting their digits, so that their
// loads are in flight together.
const radixHistogramBatch = 8

// RadixHistogramParts is the most blocks RadixHistogramKernel is launched
// with: about as many as a GPU keeps resident, so that the blocks' counts
// reach global memory with few atomics.
const RadixHistogramParts = 1024

// Order is the order a radix sort leaves its keys in.
type Order uint8

const (
	// Ascending: the smallest key first, floats in IEEE 754 totalOrder.
	Ascending Order = iota
	// Descending: the largest key first. Equal keys keep their order, as
	// in an ascending sort: the sort stays stable.
	Descending
)

// orderSuffixes end the names of the kernels of each Order.
var orderSuffixes = [...]string{Ascending: "", Descending: "_desc"}

// Check returns an error naming o when it is not one of the Orders.
func (o Order) Check() error {
	if int(o) >= len(orderSuffixes) {
		return fmt.Errorf("order %d: want Ascending (%d) or Descending (%d)", o, Ascending, Descending)
	}
	return nil
}

// suffix returns the end of the name of a kernel that sorts in order o.
func (o Order) suffix() string {
	if o.Check() != nil {
		return fmt.Sprintf("_order%d", o)
	}
	return orderSuffixes[o]
}

// keyBits is the bit pattern of keys of type K: U is uint32 or uint64, of
// K's size. load maps a key's bits to their order-preserving form, store
// back.
type keyBits[K Key, U uint32 | uint64] struct {
	width      int  // the bits of U
	sign       bool // flip the sign bit (signed integers and floats)
	float      bool // flip every other bit of negative floats too
	descending bool // digits count down (keyBits.digit)
}

// bitsOf returns the description of K's bits for a sort in order o.
func bitsOf[K Key, U uint32 | uint64](o Order) keyBits[K, U] {
	t := dsl.TypeOf[K]()
	return keyBits[K, U]{width: 8 * t.Size(), sign: t.IsSigned() || t.IsFloat(), float: t.IsFloat(), descending: o == Descending}
}

// top returns the highest bit of U's width.
func (kb keyBits[K, U]) top() dsl.Exp[U] { return dsl.Lit(U(1) << (kb.width - 1)) }

// load returns the order-preserving bits of key x.
func (kb keyBits[K, U]) load(x dsl.Exp[K]) dsl.Exp[U] {
	var u dsl.Exp[U]
	switch v := any(x).(type) {
	case dsl.F32:
		u = any(dsl.Float32Bits(v)).(dsl.Exp[U])
	case dsl.F64:
		u = any(dsl.Float64Bits(v)).(dsl.Exp[U])
	default:
		u = dsl.Cast[U](x)
	}
	if !kb.sign {
		return u
	}
	flip := kb.top()
	if kb.float { // all ones when the sign is set: 0 - (u >> (width-1))
		flip = flip.Or(dsl.Lit(U(0)).Sub(u.Shr(dsl.Lit(U(kb.width - 1)))))
	}
	return u.Xor(flip)
}

// store returns the key whose order-preserving bits are u.
func (kb keyBits[K, U]) store(u dsl.Exp[U]) dsl.Exp[K] {
	if kb.sign {
		flip := kb.top()
		if kb.float { // all ones when the top bit is clear (a negative float): (u >> (width-1)) - 1
			flip = flip.Or(u.Shr(dsl.Lit(U(kb.width - 1))).Sub(dsl.Lit(U(1))))
		}
		u = u.Xor(flip)
	}
	switch v := any(u).(type) {
	case dsl.U32:
		if k, ok := any(dsl.Float32FromBits(v)).(dsl.Exp[K]); ok {
			return k
		}
	case dsl.U64:
		if k, ok := any(dsl.Float64FromBits(v)).(dsl.Exp[K]); ok {
			return k
		}
	}
	return dsl.Cast[K](u)
}

// digit returns the digit of order-preserving bits u from bit shift, of
// width bits (at most 32), as a U32: the bits themselves, or for a sort in
// Descending order their complement, so that larger keys take smaller
// digits and come first. Nothing else of a descending sort differs: the
// keys load and store as in an ascending one, and each pass is as stable.
func (kb keyBits[K, U]) digit(u dsl.Exp[U], shift, width dsl.U32) dsl.U32 {
	mask := dsl.N(1).Shl(width).Sub(dsl.N(1))
	d := dsl.Cast[uint32](u.Shr(dsl.Cast[U](shift))).And(mask)
	if kb.descending {
		return d.Xor(mask)
	}
	return d
}

// keyName returns the name of K for kernel names, e.g. "u32" or "f64".
func keyName[K Key]() string {
	t := dsl.TypeOf[K]()
	kind := "u"
	switch {
	case t.IsFloat():
		kind = "f"
	case t.IsSigned():
		kind = "i"
	}
	return fmt.Sprintf("%s%d", kind, 8*t.Size())
}

// valuesName returns the end of the name of a kernel whose keys carry
// values: "_" and V's name for Pairs, "_positions" for Positions, "" for
// keys alone.
func valuesName[V Value](values RadixValues) string {
	switch values {
	case Pairs:
		return "_" + keyName[V]()
	case Positions:
		return "_positions"
	}
	return ""
}

// withBits runs build with U the unsigned type of K's size.
func withBits[K Key](wide func() *dsl.Kernel, narrow func() *dsl.Kernel) *dsl.Kernel {
	if dsl.TypeOf[K]().Size() == 8 {
		return wide()
	}
	return narrow()
}

// RadixHistogramKernel returns the kernel that counts the digits of every
// pass of the radix sort of keys of type K in one read of the keys: for
// pass p (the digit of bits [begin+p×Bits, min(begin+(p+1)×Bits, end)) of a
// key's order-preserving bits), hist[p×Digits + d] grows by the number of
// keys whose digit is d. The last of its blocks to finish then plans the
// passes of RadixPassKernel of the given shape and values: which of them
// rank, copy or are skipped, and where each reads and writes. Its
// parameters are keys (Input, not empty), hist (InOut, Digits words per
// pass for ceil((end-begin)/Bits) passes, zero), plans (Output: a word for
// each pass and one for the copy after the last, passes+1 words), done
// (InOut: one word, zero), clear (Output: every word set to zero, by the
// first block; the host passes the counts of the sort before, so that the
// next finds them zero), begin and end (the bits sorted, 0 <= begin <
// end <= K's bits), parts, the number of blocks the host launches (at
// most RadixHistogramParts): block b counts the keys b×threads + j×parts×
// threads + its threads' indices, several a thread at once (so that every
// step of a block reads consecutive keys, and a thread's loads are in
// flight together), passes (the number of passes) and inPlace
// (RadixAllInPlace when the output of the keys is their input and, for
// Pairs, that of the values is theirs; RadixSomeInPlace when only one of
// them is; else 0).
func RadixHistogramKernel[K Key](shape RadixShape, values RadixValues, order Order) *dsl.Kernel {
	return withBits[K](func() *dsl.Kernel { return radixHistogram[K, uint64](shape, values, order) },
		func() *dsl.Kernel { return radixHistogram[K, uint32](shape, values, order) })
}

// radixHistogram is RadixHistogramKernel with U the bits of K.
func radixHistogram[K Key, U uint32 | uint64](shape RadixShape, values RadixValues, order Order) *dsl.Kernel {
	kb := bitsOf[K, U](order)
	threads := shape.Threads
	if shape.Check() != nil {
		threads = 256
	}
	name := "radixHistogram_" + keyName[K]()
	if values == Positions {
		name += "_positions" // its plan differs (planPasses)
	}
	k := dsl.NewKernel(name+order.suffix(), threads)
	keys := dsl.Input[K](k, "keys")
	hist := dsl.InOut[uint32](k, "hist")
	plans := dsl.Output[uint32](k, "plans")
	done := dsl.InOut[uint32](k, "done")
	clear := dsl.Output[uint32](k, "clear")
	begin := dsl.Param[uint32](k, "begin")
	end := dsl.Param[uint32](k, "end")
	parts := dsl.Param[uint32](k, "parts")
	passCount := dsl.Param[uint32](k, "passes")
	inPlace := dsl.Param[uint32](k, "inPlace")
	k.Body(func(g *dsl.Grid) {
		if err := cmp.Or(shape.Check(), order.Check()); err != nil {
			dsl.Let(g, dsl.Invalid[uint32]("RadixHistogramKernel: "+err.Error()))
			return
		}
		passes, digits := shape.Passes(kb.width), shape.Digits()
		g.ForAllBlocks(parts, func(b *dsl.Block, part dsl.U32) {
			b.If(part.Eq(dsl.N(0)), func(b *dsl.Block) {
				b.ForAll(clear.Len(), func(t *dsl.Thread, i dsl.U32) { clear.Store(t, i, dsl.N(0)) })
			})
			table := dsl.Shared[uint32](b, passes*digits)
			b.ForAll(dsl.N(uint32(passes*digits)), func(t *dsl.Thread, i dsl.U32) { table.Store(t, i, dsl.N(0)) })
			b.Sync()
			n := keys.Len()
			b.ForAll(dsl.N(uint32(threads)), func(t *dsl.Thread, tid dsl.U32) {
				// Pass p counts the digit of width widths[p] at shifts[p],
				// when that shift is below end.
				shifts, widths := make([]dsl.U32, passes), make([]dsl.U32, passes)
				for p := range passes {
					shifts[p] = dsl.Let(t, begin.Add(dsl.N(uint32(p*shape.Bits)))).Exp
					widths[p] = dsl.Let(t, end.Sub(shifts[p]).Min(dsl.N(uint32(shape.Bits)))).Exp
				}
				// Block part reads tiles part, part+parts, ... of
				// radixHistogramBatch rows of the block's threads, and
				// counts a tile's keys a pass at a time.
				bits := arrays.Map(arrays.FromArray(keys), kb.load)
				tile := dsl.N(uint32(threads * radixHistogramBatch))
				first := part.Mul(tile).Add(tid)
				arrays.EachBatch(t, bits, first, dsl.N(uint32(threads)), parts.Mul(tile), radixHistogramBatch,
					func(t *dsl.Thread, batch arrays.Batch[U]) {
						for p := range passes {
							t.If(shifts[p].Lt(end), func(t *dsl.Thread) {
								batch.Each(t, func(t *dsl.Thread, _ dsl.U32, u dsl.Exp[U]) {
									d := kb.digit(u, shifts[p], widths[p])
									table.Atomic(t, dsl.AtomicAdd, d.Add(dsl.N(uint32(p*digits))), dsl.N(1))
								})
							})
						}
					})
			})
			b.Sync()
			b.ForAll(dsl.N(uint32(passes*digits)), func(t *dsl.Thread, i dsl.U32) {
				c := dsl.Let(t, table.At(i))
				t.If(c.Ne(dsl.N(0)).And(i.Lt(hist.Len())), func(t *dsl.Thread) { hist.Atomic(t, dsl.AtomicAdd, i, c.Exp) })
				dsl.Fence(t)
			})
			// The last block to finish sees every block's counts, and plans
			// the passes from them and the first key.
			finished := arrays.OneThread(b, func(t *dsl.Thread) dsl.U32 {
				return done.Fetch(t, dsl.AtomicAdd, dsl.N(0), dsl.N(1))
			})
			b.If(finished.Eq(parts.Sub(dsl.N(1))), func(b *dsl.Block) {
				b.ForAll(passCount.Add(dsl.N(1)).Min(dsl.N(uint32(passes+1))), func(t *dsl.Thread, pass dsl.U32) {
					count := func(i dsl.U32) dsl.U32 { return hist.AtomicLoad(t, i, dsl.Acquire) }
					u0 := dsl.Let(t, kb.load(keys.At(dsl.N(0)))).Exp
					plans.Store(t, pass, planPasses(t, shape, kb.width, count, kb.digit, n, u0, begin, end, passCount, pass,
						inPlace, values == Positions).word())
				})
			})
		})
	})
	return k
}

// RadixValues says what a pass of the radix sort carries with its keys.
type RadixValues int

const (
	// KeysOnly: the keys alone.
	KeysOnly RadixValues = iota
	// Pairs: values, read from valuesIn and written to valuesOut.
	Pairs
	// Positions: uint32 values that are the keys' positions in the input,
	// generated (the first pass of an argsort) and written to valuesOut.
	Positions
)

// RadixPassKernel returns the kernel of one pass of the radix sort of
// keys of type K with values of type V (ignored for KeysOnly; uint32 for
// Positions). Its parameters, in order: keysIn (Input: the sort's input),
// keysOut (InOut: its output, as long), keysAlt (InOut: scratch, as long);
// for Pairs valuesIn (Input), valuesOut and valuesAlt (InOut), for
// Positions valuesOut and valuesAlt (InOut, uint32); hist (Input:
// RadixHistogramKernel's counts), plans (Input: the plans it left),
// status (InOut: Digits look-back words per tile, zero before the first
// launch on them), tiles (InOut: a tile counter per pass, zero), pass (the
// pass's index, 0 to passes, see below), epoch (its look-back epoch, up to
// arrays.MaxEpoch, larger than that of every earlier launch on status
// since it was zeroed), begin and end (the bits sorted, as for the
// histogram). The host launches ceil(len(keysIn)/Tile) blocks for each
// pass in turn, then, when the sort is in place and passes is odd, for
// pass = passes.
//
// A pass in which every key has the same digit keeps the keys' order, and
// is skipped: its blocks return at once. Which passes those are, and
// where each pass reads the keys and writes them so that the last one
// leaves them in keysOut, the last block of RadixHistogramKernel finds on
// the device, so that the host enqueues every launch without waiting;
// each block of a pass reads its pass's plan, one word.
//
// With 8-byte keys and values (positions), a tile writes its keys out
// before its values, which follow through the shared memory the keys held
// (each key's digit kept in a byte), so that a tile needs shared memory
// for its keys alone; with 4-byte keys both go out at once.
func RadixPassKernel[K Key, V Value](shape RadixShape, values RadixValues, order Order) *dsl.Kernel {
	return withBits[K](func() *dsl.Kernel { return radixPass[K, uint64, V](shape, values, order) },
		func() *dsl.Kernel { return radixPass[K, uint32, V](shape, values, order) })
}

// The values of RadixPassKernel's inPlace parameter besides 0.
const (
	// RadixSomeInPlace: keysOut is keysIn or valuesOut is valuesIn, not
	// both.
	RadixSomeInPlace = 1
	// RadixAllInPlace: keysOut is keysIn and, for Pairs, valuesOut is
	// valuesIn.
	RadixAllInPlace = 2
)

// radixPlan is what the blocks of a pass know of the sort's passes: what
// this pass does, where it reads and where it writes.
type radixPlan struct {
	// rank: the pass ranks its keys by digit; copy: it copies them in
	// order (a pass that every key skips, run to put the keys where the
	// passes after expect them); neither: it is skipped.
	rank, copy dsl.Bool
	// fromIn, fromOut: it reads keysIn or keysOut (else keysAlt); toOut:
	// it writes keysOut (else keysAlt). The values go alike.
	fromIn, fromOut, toOut dsl.Bool
}

// flags returns the plan's fields in the order of their bits in a word.
func (p *radixPlan) flags() []*dsl.Bool {
	return []*dsl.Bool{&p.rank, &p.copy, &p.fromIn, &p.fromOut, &p.toOut}
}

// word packs the plan into one word, bit i holding flag i, as
// RadixHistogramKernel leaves it for the passes.
func (p radixPlan) word() dsl.U32 {
	w := dsl.N(0)
	for i, f := range p.flags() {
		w = w.Or(dsl.Select(*f, dsl.N(1<<i), dsl.N(0)))
	}
	return w
}

// radixPlanOf unpacks a plan's word.
func radixPlanOf(w dsl.U32) radixPlan {
	var p radixPlan
	for i, f := range p.flags() {
		*f = w.And(dsl.N(1 << i)).Ne(dsl.N(0))
	}
	return p
}

// planPasses returns, computed in thread t, the plan of pass pass (passes
// for the copy after the last pass) of a sort over bits [begin, end) in
// passes passes of the given shape, of n keys whose first key's
// order-preserving bits are u0; count(i) reads word i of the histogram,
// digit(u, shift, width) gives a digit as the histogram counted it.
// Pass q is one-digit when its count of u0's digit is n. Of the others,
// which rank, the i-th reads the keys the (i-1)-th wrote (the first reads
// keysIn) and writes keysOut when as many passes that run follow it as
// makes the last write keysOut: when the sort is in place, the first must
// write keysAlt, so that with an odd number of passes that rank, the first
// one-digit pass runs as a copy to even it out, and with none to run
// (every pass ranks), a copy from keysAlt to keysOut follows the last pass
// (pass = passes). A sort whose every pass is one-digit copies keysIn to
// keysOut in its first pass, unless it is in place (the copy is then of
// the positions alone, for argsort).
func planPasses[U uint32 | uint64](t *dsl.Thread, shape RadixShape, keyBits int, count func(i dsl.U32) dsl.U32,
	digit func(u dsl.Exp[U], shift, width dsl.U32) dsl.U32, n dsl.U32, u0 dsl.Exp[U], begin, end, passes, pass, inPlace dsl.U32,
	positions bool) radixPlan {
	digits := uint32(shape.Digits())
	one := func(x dsl.Bool) dsl.U32 { return dsl.Select(x, dsl.N(1), dsl.N(0)) }
	var ranks, firstSkips []dsl.Bool
	seenSkip := dsl.Lit(false)
	for q := range shape.Passes(keyBits) {
		shift := begin.Add(dsl.N(uint32(q * shape.Bits)))
		valid := dsl.N(uint32(q)).Lt(passes).And(shift.Lt(end))
		width := end.Sub(shift).Min(dsl.N(uint32(shape.Bits)))
		d := digit(u0, shift, width)
		// The count of d in pass q, read as count 0 of pass 0 (in every
		// histogram) when there is no pass q.
		at := dsl.Select(valid, dsl.N(uint32(q)*digits).Add(d.Min(dsl.N(digits-1))), dsl.N(0))
		skip := dsl.Let(t, dsl.Select(valid, count(at).Eq(n), dsl.Lit(false))).Exp
		ranks = append(ranks, dsl.Let(t, valid.And(skip.Not())).Exp)
		firstSkips = append(firstSkips, dsl.Let(t, skip.And(seenSkip.Not())).Exp)
		seenSkip = dsl.Let(t, seenSkip.Or(skip)).Exp
	}
	ranked := dsl.N(0)
	for _, r := range ranks {
		ranked = ranked.Add(one(r))
	}
	ranked = dsl.Let(t, ranked).Exp
	odd := ranked.And(dsl.N(1)).Eq(dsl.N(1))
	inPlaceB := inPlace.Ne(dsl.N(0))
	allOne := ranked.Eq(dsl.N(0))
	// evenOut: one one-digit pass runs as a copy.
	evenOut := inPlaceB.And(odd).And(seenSkip)
	if positions {
		evenOut = evenOut.Or(allOne)
	} else {
		evenOut = evenOut.Or(allOne.And(inPlace.Ne(dsl.N(RadixAllInPlace))))
	}
	evenOut = dsl.Let(t, evenOut).Exp
	// runs: the passes that run, before this one (before) and in all.
	runs := ranked.Add(one(evenOut))
	before, mine, ranksHere := dsl.N(0), dsl.Lit(false), dsl.Lit(false)
	for q := range ranks {
		runsQ := ranks[q].Or(evenOut.And(firstSkips[q]))
		before = before.Add(one(runsQ.And(dsl.N(uint32(q)).Lt(pass))))
		here := dsl.N(uint32(q)).Eq(pass)
		mine = mine.Or(here.And(runsQ))
		ranksHere = ranksHere.Or(here.And(ranks[q]))
	}
	before, runs = dsl.Let(t, before).Exp, dsl.Let(t, runs).Exp
	// The last pass that runs writes keysOut unless the sort is in place
	// with an odd number of ranking passes and no one-digit pass to even
	// them out; then the copy after the last pass (pass = passes) moves
	// the keys from keysAlt to keysOut.
	endsInAlt := dsl.Let(t, inPlaceB.And(runs.And(dsl.N(1)).Eq(dsl.N(1))).And(ranked.Gt(dsl.N(0)))).Exp
	last := runs.Sub(dsl.N(1)).Add(one(endsInAlt))
	// toOut(i): the i-th pass that runs writes keysOut.
	toOut := func(i dsl.U32) dsl.Bool { return last.Sub(i).And(dsl.N(1)).Eq(dsl.N(0)) }
	tail := pass.Eq(passes)
	return radixPlan{
		rank:    dsl.Let(t, ranksHere.And(tail.Not())).Exp,
		copy:    dsl.Let(t, mine.And(ranksHere.Not()).And(tail.Not()).Or(tail.And(endsInAlt))).Exp,
		fromIn:  dsl.Let(t, before.Eq(dsl.N(0)).And(tail.Not())).Exp,
		fromOut: dsl.Let(t, before.Gt(dsl.N(0)).And(toOut(before.Sub(dsl.N(1)))).And(tail.Not())).Exp,
		toOut:   dsl.Let(t, toOut(before).Or(tail)).Exp,
	}
}

// radixSource is where a pass reads the i-th key, value or (argsort)
// position: from the sort's input, its output or its scratch.
type radixSource[K Key, V Value] struct {
	key      func(i dsl.U32) dsl.Exp[K]
	value    func(i dsl.U32) dsl.Exp[V]
	position func(i dsl.U32) dsl.U32
}

// radixDestination is where a pass writes: the sort's output or its
// scratch. Only the arrays that the pass's RadixValues use are set.
type radixDestination[K Key, V Value] struct {
	keys      dsl.Array[K]
	values    dsl.Array[V]
	positions dsl.Array[uint32]
}

// bySource runs f with the source that plan says block b's pass reads.
// The choice is a uniform branch around f, made once per block: no key
// pays for it.
func bySource[K Key, V Value](b *dsl.Block, plan radixPlan, in, out, alt radixSource[K, V],
	f func(*dsl.Block, radixSource[K, V])) {
	b.IfElse(plan.fromIn, func(b *dsl.Block) { f(b, in) }, func(b *dsl.Block) {
		b.IfElse(plan.fromOut, func(b *dsl.Block) { f(b, out) }, func(b *dsl.Block) { f(b, alt) })
	})
}

// byDestination runs f with the destination that plan says block b's
// pass writes, chosen as bySource chooses.
func byDestination[K Key, V Value](b *dsl.Block, plan radixPlan, out, alt radixDestination[K, V],
	f func(*dsl.Block, radixDestination[K, V])) {
	b.IfElse(plan.toOut, func(b *dsl.Block) { f(b, out) }, func(b *dsl.Block) { f(b, alt) })
}

// paddedWriter writes element r of a tile at BankPadded(r) of a.
func paddedWriter[T dsl.Scalar](a dsl.Array[T]) arrays.Writer[T] {
	return slotWriter(a, arrays.BankPadded)
}

// slotWriter writes element r of a tile at slot(r) of a.
func slotWriter[T dsl.Scalar](a dsl.Array[T], slot func(dsl.U32) dsl.U32) arrays.Writer[T] {
	return func(t *dsl.Thread, r dsl.U32, v dsl.Exp[T]) { a.Store(t, slot(r), v) }
}

// radixPass is RadixPassKernel with U the bits of K.
func radixPass[K Key, U uint32 | uint64, V Value](shape RadixShape, values RadixValues, order Order) *dsl.Kernel {
	kb := bitsOf[K, U](order)
	threads := shape.Threads
	if shape.Check() != nil {
		threads = 256
	}
	k := dsl.NewKernel("radixPass_"+keyName[K]()+valuesName[V](values)+order.suffix(), threads)
	if shape.Check() == nil {
		k.MinBlocks(shape.MinBlocks)
	}
	keysIn := dsl.Input[K](k, "keysIn")
	keysOut := dsl.InOut[K](k, "keysOut")
	keysAlt := dsl.InOut[K](k, "keysAlt")
	var valuesIn, valuesOut, valuesAlt dsl.Array[V]
	var positionsOut, positionsAlt dsl.Array[uint32]
	switch values {
	case Pairs:
		valuesIn = dsl.Input[V](k, "valuesIn")
		valuesOut = dsl.InOut[V](k, "valuesOut")
		valuesAlt = dsl.InOut[V](k, "valuesAlt")
	case Positions:
		positionsOut = dsl.InOut[uint32](k, "valuesOut")
		positionsAlt = dsl.InOut[uint32](k, "valuesAlt")
	}
	hist := dsl.Input[uint32](k, "hist")
	plans := dsl.Input[uint32](k, "plans")
	status := dsl.InOut[uint64](k, "status")
	tiles := dsl.InOut[uint32](k, "tiles")
	pass := dsl.Param[uint32](k, "pass")
	epoch := dsl.Param[uint32](k, "epoch")
	begin := dsl.Param[uint32](k, "begin")
	end := dsl.Param[uint32](k, "end")
	k.Body(func(g *dsl.Grid) {
		if err := cmp.Or(shape.Check(), order.Check()); err != nil {
			dsl.Let(g, dsl.Invalid[uint32]("RadixPassKernel: "+err.Error()))
			return
		}
		tileLen, digits := uint32(shape.Tile()), uint32(shape.Digits())
		n := keysIn.Len()
		shift := dsl.Let(g, begin.Add(pass.Mul(dsl.N(uint32(shape.Bits))))).Exp
		width := dsl.Let(g, end.Sub(shift).Min(dsl.N(uint32(shape.Bits)))).Exp
		// The pass's sources and destinations; its plan says which.
		var plan radixPlan
		in := radixSource[K, V]{key: keysIn.At, value: valuesIn.At, position: func(i dsl.U32) dsl.U32 { return i }}
		out := radixSource[K, V]{key: keysOut.At, value: valuesOut.At, position: positionsOut.At}
		alt := radixSource[K, V]{key: keysAlt.At, value: valuesAlt.At, position: positionsAlt.At}
		toOut := radixDestination[K, V]{keys: keysOut, values: valuesOut, positions: positionsOut}
		toAlt := radixDestination[K, V]{keys: keysAlt, values: valuesAlt, positions: positionsAlt}
		// loadValues reads the tile's values (an argsort's positions) into
		// registers, held as the keys are.
		loadValues := func(b *dsl.Block, first, count dsl.U32) (arrays.Held[V], arrays.Held[uint32]) {
			var heldValues arrays.Held[V]
			var heldPositions arrays.Held[uint32]
			switch values {
			case Pairs:
				heldValues = newTile[V](b, shape, count)
				bySource(b, plan, in, out, alt, func(b *dsl.Block, src radixSource[K, V]) {
					heldValues.Load(b, arrays.Generate(count, func(i dsl.U32) dsl.Exp[V] { return src.value(first.Add(i)) }))
				})
			case Positions:
				heldPositions = newTile[uint32](b, shape, count)
				bySource(b, plan, in, out, alt, func(b *dsl.Block, src radixSource[K, V]) {
					heldPositions.Load(b, arrays.Generate(count, func(i dsl.U32) dsl.U32 { return src.position(first.Add(i)) }))
				})
			}
			return heldValues, heldPositions
		}
		// valuesAfterKeys: a pass with values (positions) and 8-byte keys
		// writes its keys out before its values, which then move to their
		// ranks through the shared memory the keys held, so that the tile
		// needs shared memory for its keys and a byte a key, not for its
		// keys and values at once. Measured on an H200
		// (2^25 keys over every bit, medians of 15): uint64 keys with
		// uint32 values 2.584 ms in 384×17 against 2.655–2.660 writing both
		// at once, 2.516 in 384×20; uint64 keys and values 3.155 in 384×15
		// against 3.315. With 4-byte keys it was slower: uint32 keys and
		// values 1.072 ms against 1.043 (512×18), uint32 keys with uint64
		// values 1.410 against 1.388 (512×12).
		valuesAfterKeys := values != KeysOnly && kb.width == 64
		// rankAndMove moves the count keys of tile from first, held in keys,
		// to their ranks and from there to where the pass puts them, given
		// the digits' global offsets.
		rankAndMove := func(b *dsl.Block, m arrays.Multisplit, keys arrays.Held[U], digitOf func(dsl.Exp[U]) dsl.U32,
			tile, first, count dsl.U32, global dsl.Array[uint32]) {
			// The tile's counts are published now, and the walk back over
			// the tiles before waits until the keys have moved to their
			// ranks in shared memory, which needs no global offset: by then
			// more of those tiles have published their inclusive prefixes,
			// so the walks are shorter.
			published := arrays.LookBackPublish(b, dsl.U32.Add, dsl.N(0), arrays.FromArray(global), status, epoch, tile,
				m.Counts())
			// The keys move to their ranks in shared memory (the key of rank
			// r at shape.slot(r): BankPadded(r) unless the shape is
			// Unpadded); a pair's values (an argsort's positions) are read
			// into registers only now, as CUB's Onesweep reads them after
			// ranking the keys, and follow to the same ranks.
			ranks := m.HeldRanks(b)
			padded := shape.slots()
			sorted := dsl.Shared[U](b, padded)
			keys.ScatterBy(ranks).Run(b, slotWriter(sorted, shape.slot))
			heldValues, heldPositions := loadValues(b, first, count)
			var sortedValues dsl.Array[V]
			var sortedPositions dsl.Array[uint32]
			scatterValues := func() {
				switch values {
				case Pairs:
					sortedValues = dsl.Shared[V](b, padded)
					heldValues.ScatterBy(ranks).Run(b, slotWriter(sortedValues, shape.slot))
				case Positions:
					sortedPositions = dsl.Shared[uint32](b, padded)
					heldPositions.ScatterBy(ranks).Run(b, slotWriter(sortedPositions, shape.slot))
				}
			}
			if !valuesAfterKeys {
				scatterValues()
			}
			before := published.Prefixes(b, max(shape.Window, 1))
			// base[d] + j is where the tile's j-th key in digit order goes,
			// when its digit is d. It takes the array of the first tile's
			// offsets, read by then.
			base := arrays.ComputeInto(b, global, arrays.Generate(dsl.N(digits), func(d dsl.U32) dsl.U32 {
				return before.At(d).Sub(m.Offsets().At(d))
			}))
			storeValue := func(t *dsl.Thread, dst radixDestination[K, V], at, slot dsl.U32) {
				switch values {
				case Pairs:
					dst.values.Store(t, at, sortedValues.At(slot))
				case Positions:
					dst.positions.Store(t, at, sortedPositions.At(slot))
				}
			}
			if !valuesAfterKeys {
				byDestination(b, plan, toOut, toAlt, func(b *dsl.Block, dst radixDestination[K, V]) {
					b.ForAllUnrolled(count, shape.Unroll, func(t *dsl.Thread, j dsl.U32) {
						slot := dsl.Let(t, shape.slot(j))
						u := dsl.Let(t, sorted.At(slot.Exp))
						at := dsl.Let(t, base.At(digitOf(u.Exp)).Add(j))
						dst.keys.Store(t, at.Exp, kb.store(u.Exp))
						storeValue(t, dst, at.Exp, slot.Exp)
					})
				})
				return
			}
			// The keys go out first, each slot's digit kept in a byte (a
			// digit has at most arrays.MaxDigitBits = 8 bits); then
			// the values move to their ranks in the shared memory the keys
			// held (the layout reuses it past the barrier) and go out to
			// the places of their keys.
			digitAt := dsl.Shared[uint8](b, int(tileLen))
			byDestination(b, plan, toOut, toAlt, func(b *dsl.Block, dst radixDestination[K, V]) {
				b.ForAllUnrolled(count, shape.Unroll, func(t *dsl.Thread, j dsl.U32) {
					u := dsl.Let(t, sorted.At(shape.slot(j)))
					d := dsl.Let(t, digitOf(u.Exp))
					digitAt.Store(t, j, dsl.Cast[uint8](d.Exp))
					dst.keys.Store(t, base.At(d.Exp).Add(j), kb.store(u.Exp))
				})
			})
			b.Sync()
			scatterValues()
			b.Sync()
			byDestination(b, plan, toOut, toAlt, func(b *dsl.Block, dst radixDestination[K, V]) {
				b.ForAllUnrolled(count, shape.Unroll, func(t *dsl.Thread, j dsl.U32) {
					storeValue(t, dst, base.At(dsl.Cast[uint32](digitAt.At(j))).Add(j), shape.slot(j))
				})
			})
		}
		// moveTile moves the count keys of tile from first, held in keys
		// and all of digit only, to that digit's place in their order.
		moveTile := func(b *dsl.Block, keys arrays.Held[U], only, tile, first, count dsl.U32, global dsl.Array[uint32]) {
			counts := arrays.Generate(dsl.N(digits), func(d dsl.U32) dsl.U32 { return dsl.Select(d.Eq(only), count, dsl.N(0)) })
			published := arrays.LookBackPublish(b, dsl.U32.Add, dsl.N(0), arrays.FromArray(global), status, epoch, tile, counts)
			heldValues, heldPositions := loadValues(b, first, count)
			at := published.Prefixes(b, max(shape.Window, 1)).At(only)
			byDestination(b, plan, toOut, toAlt, func(b *dsl.Block, dst radixDestination[K, V]) {
				keys.Push().Run(b, func(t *dsl.Thread, j dsl.U32, u dsl.Exp[U]) { dst.keys.Store(t, at.Add(j), kb.store(u)) })
				switch values {
				case Pairs:
					heldValues.Push().Run(b, func(t *dsl.Thread, j dsl.U32, v dsl.Exp[V]) { dst.values.Store(t, at.Add(j), v) })
				case Positions:
					heldPositions.Push().Run(b, func(t *dsl.Thread, j, p dsl.U32) { dst.positions.Store(t, at.Add(j), p) })
				}
			})
		}
		// sortTile moves the count keys of tile from first to where the
		// pass puts them, given the pass's row of the histogram.
		sortTile := func(b *dsl.Block, tile, first, count dsl.U32, row arrays.Pull[uint32]) {
			digitOf := func(u dsl.Exp[U]) dsl.U32 { return kb.digit(u, shift, width) }
			// A ranking by votes has its counters zeroed first, before the
			// keys load (so that no key waits in a register across the
			// zeroing), and the barrier of the check for one digit below
			// stands for its own.
			rank := func(b *dsl.Block, keys arrays.Held[U]) arrays.Multisplit { return rankTile(b, shape, keys, digitOf) }
			if shape.Rank != RankByCounters {
				counters := arrays.NewMultisplitCounters(b, shape.Bits)
				rank = func(b *dsl.Block, keys arrays.Held[U]) arrays.Multisplit {
					return arrays.BlockMultisplitHeldOn(b, counters, keys, digitOf)
				}
			}
			// The tile's keys, held in the threads' registers until they
			// move.
			keys := newTile[U](b, shape, count)
			bySource(b, plan, in, out, alt, func(b *dsl.Block, src radixSource[K, V]) {
				keys.Load(b, arrays.Generate(count, func(i dsl.U32) dsl.Exp[U] { return kb.load(src.key(first.Add(i))) }))
			})
			// The first tile finds each digit's global offset (the exclusive
			// scan of the pass's row of the histogram) and seeds the
			// look-back with it, so that every tile's look-back gives the
			// number of keys before its own of each digit, in the whole
			// output.
			global := dsl.Shared[uint32](b, int(digits))
			b.If(tile.Eq(dsl.N(0)), func(b *dsl.Block) {
				arrays.ScanExclusive[*dsl.Block](dsl.U32.Add, dsl.N(0), row).Run(b, global.Store)
				b.Sync()
			})
			// A tile whose keys all have one digit (runs of equal keys, or
			// bits that vary only from tile to tile) keeps its order: it is
			// not ranked, and moves from the registers straight to its
			// digit's place, as CUB's Onesweep short-circuits such a tile.
			// A digit selects bits of its key, so that each thread folds
			// its keys with & and | to find whether they agree.
			only, oneDigit := arrays.UniformBits(keys, b, digitOf)
			b.IfElse(oneDigit, func(b *dsl.Block) { moveTile(b, keys, only, tile, first, count, global) },
				func(b *dsl.Block) { rankAndMove(b, rank(b, keys), keys, digitOf, tile, first, count, global) })
		}
		tileCount := dsl.CeilDiv(n, dsl.N(tileLen))
		g.ForAllBlocks(tileCount, func(b *dsl.Block, bid dsl.U32) {
			plan = radixPlanOf(dsl.Let(b, plans.At(pass)).Exp)
			// A pass that runs as a copy keeps the keys' order and publishes
			// no look-back words; a skipped pass does nothing.
			b.If(plan.copy, func(b *dsl.Block) {
				first := dsl.Let(b, bid.Mul(dsl.N(tileLen))).Exp
				count := n.Sub(first).Min(dsl.N(tileLen))
				bySource(b, plan, in, out, alt, func(b *dsl.Block, src radixSource[K, V]) {
					byDestination(b, plan, toOut, toAlt, func(b *dsl.Block, dst radixDestination[K, V]) {
						b.ForAll(count, func(t *dsl.Thread, i dsl.U32) {
							at := dsl.Let(t, first.Add(i)).Exp
							dst.keys.Store(t, at, src.key(at))
							switch values {
							case Pairs:
								dst.values.Store(t, at, src.value(at))
							case Positions:
								dst.positions.Store(t, at, src.position(at))
							}
						})
					})
				})
			})
			b.If(plan.rank, func(b *dsl.Block) {
				tile := arrays.BlockTile(b, bid, tileCount, tiles, pass)
				first := dsl.Let(b, tile.Mul(dsl.N(tileLen))).Exp
				count := dsl.Let(b, n.Sub(first).Min(dsl.N(tileLen))).Exp
				row := arrays.Generate(dsl.N(digits), func(d dsl.U32) dsl.U32 {
					return hist.At(pass.Mul(dsl.N(digits)).Add(d))
				})
				// Every tile but the last is full, and takes a copy of the
				// pass whose count is a constant, so that its keys need no
				// bound checks.
				full := dsl.N(tileLen)
				b.IfElse(count.Eq(full), func(b *dsl.Block) { sortTile(b, tile, first, full, row) },
					func(b *dsl.Block) { sortTile(b, tile, first, count, row) })
			})
		})
	})
	return k
}

package kernels

import (
	"fmt"

	"github.com/obsidian-go/obsidian/arrays"
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
// blocks start in index order), loads it into shared memory, ranks its keys by digit
// (BlockMultisplit: the stable multisplit of the tile) and publishes its
// digits' counts for the look-back (LookBackPublish, one thread per
// digit); the first tile publishes them raised by the pass's global offset
// of each digit (ScanExclusive of the pass's row of the histogram). The
// keys then move to their ranks in shared memory, and only then does the
// block look back over the tiles before it for the count of each digit
// there (Prefixes, in the same launch), which gives each digit's place in
// the whole output: meanwhile more of those tiles have published their
// own, so the walks back are shorter. The keys leave the block in rank
// order, so that consecutive threads write consecutive addresses within a
// digit's run; values follow their keys. A pass in which every key has
// the same digit (equal keys, or bits above the keys' range: the pass's
// count of the digit of any one key is n, which each block reads for the
// first key of its tile) keeps their order, and its blocks only copy their
// tiles.
//
// Keys are sorted by their bits in an order-preserving form (CUB's
// "twiddle"), applied when a pass loads a key and undone when it stores
// it: unsigned keys as they are, signed ones with the sign bit flipped,
// floats in IEEE 754 totalOrder (a negative float with all its bits
// flipped, a positive one with its sign bit flipped), so that -NaN < -Inf
// < ... < -0 < +0 < ... < +Inf < +NaN, NaNs ordered by their payloads.

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
	}
	return nil
}

// RadixShapeFor returns the shape the radix sort uses for n keys of
// keyBytes bytes: the first of radixShapes for keys of that size and up to
// that many keys; otherwise 256 threads of 16 keys of 32 bits, or of 8
// keys of 64 bits (32 KiB of keys in shared memory), 8-bit digits, and a
// look-back that reads the words of 4 tiles at once. Measured on an H200
// (2^25 keys of 32 bits over their 32 bits, the walk back after the keys
// have moved to their ranks): windows of 2 and 4 tiles take 1.079 and
// 1.073 ms against 1.126 ms for one tile at a time, 8 tiles 1.152 ms.
func RadixShapeFor(keyBytes, n int) RadixShape {
	for _, r := range radixShapes {
		if r.keyBytes == keyBytes && n <= r.upTo {
			return r.shape
		}
	}
	return RadixShape{Threads: 256, PerThread: 64 / keyBytes, Bits: RadixBits, Window: 4}
}

// radixShapes are the shapes of the small sorts, where the passes' tiles
// are few and smaller ones give the GPU more blocks. Measured on an H200
// (32-bit keys over 32 bits): at 2^16 keys tiles of 2048 keys (512
// threads of 4) take 0.056 ms against 0.070 ms for the default's 4096; at
// 2^20 keys they are slower (0.132 ms against 0.106 ms).
var radixShapes = []struct {
	keyBytes, upTo int
	shape          RadixShape
}{
	{keyBytes: 4, upTo: 1 << 16, shape: RadixShape{Threads: 512, PerThread: 4, Bits: RadixBits}},
}

// RadixHistogramParts is the most blocks RadixHistogramKernel is launched
// with: about as many as a GPU keeps resident, so that the blocks' counts
// reach global memory with few atomics.
const RadixHistogramParts = 1024

// keyBits is the bit pattern of keys of type K: U is uint32 or uint64, of
// K's size. in maps a key's bits to their order-preserving form, out back.
type keyBits[K Key, U uint32 | uint64] struct {
	width int  // the bits of U
	sign  bool // flip the sign bit (signed integers and floats)
	float bool // flip every other bit of negative floats too
}

// bitsOf returns the description of K's bits.
func bitsOf[K Key, U uint32 | uint64]() keyBits[K, U] {
	t := dsl.TypeOf[K]()
	return keyBits[K, U]{width: 8 * t.Size(), sign: t.IsSigned() || t.IsFloat(), float: t.IsFloat()}
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

// digit returns the digit of bits u from bit shift, of width bits (at
// most 32), as a U32.
func digit[U uint32 | uint64](u dsl.Exp[U], shift, width dsl.U32) dsl.U32 {
	return dsl.Cast[uint32](u.Shr(dsl.Cast[U](shift))).And(dsl.N(1).Shl(width).Sub(dsl.N(1)))
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
// keys whose digit is d. Its parameters are keys (Input), hist (InOut,
// Digits words per pass for ceil((end-begin)/Bits) passes, zero),
// begin and end (the bits sorted, 0 <= begin < end <= K's bits) and parts,
// the number of blocks the host launches (at most RadixHistogramParts):
// block b counts the b-th of parts equal runs of the keys.
func RadixHistogramKernel[K Key](shape RadixShape) *dsl.Kernel {
	return withBits[K](func() *dsl.Kernel { return radixHistogram[K, uint64](shape) },
		func() *dsl.Kernel { return radixHistogram[K, uint32](shape) })
}

// radixHistogram is RadixHistogramKernel with U the bits of K.
func radixHistogram[K Key, U uint32 | uint64](shape RadixShape) *dsl.Kernel {
	kb := bitsOf[K, U]()
	threads := shape.Threads
	if shape.Check() != nil {
		threads = 256
	}
	k := dsl.NewKernel("radixHistogram_"+keyName[K](), threads)
	keys := dsl.Input[K](k, "keys")
	hist := dsl.InOut[uint32](k, "hist")
	begin := dsl.Param[uint32](k, "begin")
	end := dsl.Param[uint32](k, "end")
	parts := dsl.Param[uint32](k, "parts")
	k.Body(func(g *dsl.Grid) {
		if err := shape.Check(); err != nil {
			dsl.Let(g, dsl.Invalid[uint32]("RadixHistogramKernel: "+err.Error()))
			return
		}
		passes, digits := shape.Passes(kb.width), shape.Digits()
		g.ForAllBlocks(parts, func(b *dsl.Block, part dsl.U32) {
			table := dsl.Shared[uint32](b, passes*digits)
			b.ForAll(dsl.N(uint32(passes*digits)), func(t *dsl.Thread, i dsl.U32) { table.Store(t, i, dsl.N(0)) })
			b.Sync()
			n := keys.Len()
			// The part's keys: a run of a multiple of threads keys.
			per := dsl.Let(b, dsl.CeilDiv(dsl.CeilDiv(n, parts), dsl.N(uint32(threads))).Mul(dsl.N(uint32(threads))))
			first := dsl.Let(b, part.Mul(per.Exp))
			b.ForAll(dsl.N(uint32(threads)), func(t *dsl.Thread, tid dsl.U32) {
				t.For(per.Div(dsl.N(uint32(threads))), func(t *dsl.Thread, j dsl.U32) {
					i := dsl.Let(t, first.Add(j.Mul(dsl.N(uint32(threads)))).Add(tid))
					t.If(i.Lt(n), func(t *dsl.Thread) {
						u := dsl.Let(t, kb.load(keys.At(i.Exp)))
						for p := range passes {
							shift := dsl.Let(t, begin.Add(dsl.N(uint32(p*shape.Bits))))
							t.If(shift.Lt(end), func(t *dsl.Thread) {
								width := end.Sub(shift.Exp).Min(dsl.N(uint32(shape.Bits)))
								d := digit(u.Exp, shift.Exp, width)
								table.Atomic(t, dsl.AtomicAdd, d.Add(dsl.N(uint32(p*digits))), dsl.N(1))
							})
						}
					})
				})
			})
			b.Sync()
			b.ForAll(dsl.N(uint32(passes*digits)), func(t *dsl.Thread, i dsl.U32) {
				c := dsl.Let(t, table.At(i))
				t.If(c.Ne(dsl.N(0)).And(i.Lt(hist.Len())), func(t *dsl.Thread) { hist.Atomic(t, dsl.AtomicAdd, i, c.Exp) })
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
// Positions). Its parameters, in order: keysIn (Input), keysOut (Output,
// as long), valuesIn (Input, for Pairs), valuesOut (Output, for Pairs and
// Positions), hist (Input: RadixHistogramKernel's counts), status (InOut:
// Digits look-back words per tile, zero before the first launch on them),
// tiles (InOut: a tile counter per pass, zero), pass (the pass's index:
// its row of hist and its tile counter), epoch (its look-back epoch, up to
// arrays.MaxEpoch, larger than that of every earlier launch on status
// since it was zeroed), shift (the digit's lowest bit) and width (its
// number of bits, 0 to Bits). The host
// launches ceil(len(keysIn)/Tile) blocks; keysOut and valuesOut must not
// be keysIn or valuesIn.
func RadixPassKernel[K Key, V Value](shape RadixShape, values RadixValues) *dsl.Kernel {
	return withBits[K](func() *dsl.Kernel { return radixPass[K, uint64, V](shape, values) },
		func() *dsl.Kernel { return radixPass[K, uint32, V](shape, values) })
}

// radixPass is RadixPassKernel with U the bits of K.
func radixPass[K Key, U uint32 | uint64, V Value](shape RadixShape, values RadixValues) *dsl.Kernel {
	kb := bitsOf[K, U]()
	threads := shape.Threads
	if shape.Check() != nil {
		threads = 256
	}
	name := "radixPass_" + keyName[K]()
	switch values {
	case Pairs:
		name += "_" + keyName[V]()
	case Positions:
		name += "_positions"
	}
	k := dsl.NewKernel(name, threads)
	keysIn := dsl.Input[K](k, "keysIn")
	keysOut := dsl.Output[K](k, "keysOut")
	var valuesIn dsl.Array[V]
	var valuesOut dsl.Array[V]
	var positionsOut dsl.Array[uint32]
	switch values {
	case Pairs:
		valuesIn = dsl.Input[V](k, "valuesIn")
		valuesOut = dsl.Output[V](k, "valuesOut")
	case Positions:
		positionsOut = dsl.Output[uint32](k, "valuesOut")
	}
	hist := dsl.Input[uint32](k, "hist")
	status := dsl.InOut[uint64](k, "status")
	tiles := dsl.InOut[uint32](k, "tiles")
	pass := dsl.Param[uint32](k, "pass")
	epoch := dsl.Param[uint32](k, "epoch")
	shift := dsl.Param[uint32](k, "shift")
	width := dsl.Param[uint32](k, "width")
	k.Body(func(g *dsl.Grid) {
		if err := shape.Check(); err != nil {
			dsl.Let(g, dsl.Invalid[uint32]("RadixPassKernel: "+err.Error()))
			return
		}
		tileLen, digits := uint32(shape.Tile()), uint32(shape.Digits())
		n := keysIn.Len()
		// sortTile moves the count keys of tile from first to where the
		// pass puts them, given the pass's row of the histogram.
		sortTile := func(b *dsl.Block, tile, first, count dsl.U32, row arrays.Pull[uint32]) {
			// The tile's keys in shared memory, read in rows.
			keys := arrays.Compute(b, arrays.Generate(dsl.N(tileLen), func(i dsl.U32) dsl.Exp[U] {
				return dsl.Select(i.Lt(count), kb.load(keysIn.At(first.Add(i))), dsl.Lit(U(0)))
			}))
			// A pair's values too, read in rows like the keys, so that they
			// leave in rank order from shared memory, not gathered from
			// global memory.
			var vals arrays.Pull[V]
			if values == Pairs {
				vals = arrays.Compute(b, arrays.Generate(dsl.N(tileLen), func(i dsl.U32) dsl.Exp[V] {
					return dsl.Select(i.Lt(count), valuesIn.At(first.Add(i)), dsl.Lit(V(0)))
				}))
			}
			digitOf := func(u dsl.Exp[U]) dsl.U32 { return digit(u, shift, width) }
			m := arrays.BlockMultisplit(b, shape.Bits, arrays.Take(count, keys), digitOf)
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
			// The tile's counts are published now, and the walk back over
			// the tiles before waits until the keys have moved to their
			// ranks in shared memory, which needs no global offset: by then
			// more of those tiles have published their inclusive prefixes,
			// so the walks are shorter.
			published := arrays.LookBackPublish(b, dsl.U32.Add, dsl.N(0), arrays.FromArray(global), status, epoch, tile,
				m.Counts())
			// Keys alone move to their ranks in shared memory (sorted[r] is
			// the key of rank r); with values, only the index of the key of
			// rank r does (from[r]), and the key and value of rank r are
			// read through it, so that a pass with values holds one
			// tile-sized array besides the keys and values, not two.
			var sorted dsl.Array[U]
			var from dsl.Array[uint32]
			keyOfRank := func(j dsl.U32) dsl.Exp[U] { return sorted.At(j) }
			if values == KeysOnly {
				sorted = dsl.Shared[U](b, int(tileLen))
				arrays.ScatterByRank(m.Ranks(), keys).Run(b, sorted.Store)
			} else {
				from = dsl.Shared[uint32](b, int(tileLen))
				arrays.ScatterByRank(m.Ranks(), arrays.Generate(count, func(i dsl.U32) dsl.U32 { return i })).Run(b, from.Store)
				keyOfRank = func(j dsl.U32) dsl.Exp[U] { return keys.At(from.At(j)) }
			}
			before := published.Prefixes(b, max(shape.Window, 1))
			// base[d] + j is where the tile's j-th key in digit order goes,
			// when its digit is d.
			base := arrays.Compute(b, arrays.Generate(dsl.N(digits), func(d dsl.U32) dsl.U32 {
				return before.At(d).Sub(m.Offsets().At(d))
			}))
			b.ForAll(count, func(t *dsl.Thread, j dsl.U32) {
				u := dsl.Let(t, keyOfRank(j))
				at := dsl.Let(t, base.At(digitOf(u.Exp)).Add(j))
				keysOut.Store(t, at.Exp, kb.store(u.Exp))
				switch values {
				case Pairs:
					valuesOut.Store(t, at.Exp, vals.At(from.At(j)))
				case Positions:
					positionsOut.Store(t, at.Exp, first.Add(from.At(j)))
				}
			})
		}
		tileCount := dsl.CeilDiv(n, dsl.N(tileLen))
		g.ForAllBlocks(tileCount, func(b *dsl.Block, bid dsl.U32) {
			tile := arrays.BlockTile(b, bid, tileCount, tiles, pass)
			first := dsl.Let(b, tile.Mul(dsl.N(tileLen))).Exp
			count := dsl.Let(b, n.Sub(first).Min(dsl.N(tileLen))).Exp
			row := arrays.Generate(dsl.N(digits), func(d dsl.U32) dsl.U32 { return hist.At(pass.Mul(dsl.N(digits)).Add(d)) })
			// When every key has the same digit, the pass keeps their order:
			// its blocks only copy their tiles, and publish no look-back words.
			// Every key has the digit d of the tile's first key exactly when
			// the pass's count of d is n.
			d := digit(kb.load(keysIn.At(first)), shift, width)
			same := dsl.Let(b, hist.At(pass.Mul(dsl.N(digits)).Add(d)).Eq(n)).Exp
			b.IfElse(same, func(b *dsl.Block) {
				b.ForAll(count, func(t *dsl.Thread, i dsl.U32) {
					at := dsl.Let(t, first.Add(i)).Exp
					keysOut.Store(t, at, keysIn.At(at))
					switch values {
					case Pairs:
						valuesOut.Store(t, at, valuesIn.At(at))
					case Positions:
						positionsOut.Store(t, at, at)
					}
				})
			}, func(b *dsl.Block) { sortTile(b, tile, first, count, row) })
		})
	})
	return k
}

// RadixCopyKernel returns the kernel that copies src (Input) to dst
// (Output, as long), for a sort whose last pass leaves its result in
// scratch memory.
func RadixCopyKernel[T Key]() *dsl.Kernel {
	k := dsl.NewKernel("radixCopy_"+keyName[T](), 256)
	src := dsl.Input[T](k, "src")
	dst := dsl.Output[T](k, "dst")
	k.Body(func(g *dsl.Grid) {
		arrays.WriteTo(g, dst, arrays.ToPush[*dsl.Grid](arrays.FromArray(src)))
	})
	return k
}

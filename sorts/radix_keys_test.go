package sorts_test

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// orderOf returns k's rank in IEEE 754 totalOrder (floats) or its numeric
// order (integers) as a uint64, computed independently of the package:
// the reference the radix sort is compared with.
func orderOf[K sorts.Key](k K) uint64 {
	switch v := any(k).(type) {
	case uint32:
		return uint64(v)
	case int32:
		return uint64(int64(v) - math.MinInt32)
	case uint64:
		return v
	case int64:
		return uint64(v) - 1<<63
	case float32:
		b := math.Float32bits(v)
		if b>>31 == 1 {
			return uint64(^b)
		}
		return uint64(b) | 1<<31
	case float64:
		b := math.Float64bits(v)
		if b>>63 == 1 {
			return ^b
		}
		return b | 1<<63
	}
	panic("orderOf: not a key type")
}

// bitsOf returns k's bits, to compare floats (NaNs, -0) exactly.
func bitsOf[K sorts.Key](k K) uint64 {
	switch v := any(k).(type) {
	case float32:
		return uint64(math.Float32bits(v))
	case float64:
		return math.Float64bits(v)
	case uint32:
		return uint64(v)
	case int32:
		return uint64(uint32(v))
	case uint64:
		return v
	case int64:
		return uint64(v)
	}
	panic("bitsOf: not a key type")
}

// specialKeys returns keys of K that sort tricky: for floats ±0, NaNs of
// both signs with payloads (quiet and signalling), ±Inf, subnormals,
// ±max; for integers the extremes.
func specialKeys[K sorts.Key]() []K {
	var k K
	switch any(k).(type) {
	case float32:
		bits := []uint32{0, 1 << 31, 0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001, 0x7fffffff, 0xffffffff, 0x7fa00000,
			0x7f800000, 0xff800000, 1, 0x80000001, 0x007fffff, 0x807fffff, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000}
		out := make([]K, len(bits))
		for i, b := range bits {
			out[i] = any(math.Float32frombits(b)).(K)
		}
		return out
	case float64:
		bits := []uint64{0, 1 << 63, 0x7ff8000000000000, 0xfff8000000000000, 0x7ff0000000000001, 0xfff0000000000001,
			0x7fffffffffffffff, 0xffffffffffffffff, 0x7ff0000000000000, 0xfff0000000000000, 1, 0x8000000000000001,
			0x000fffffffffffff, 0x800fffffffffffff, 0x7fefffffffffffff, 0xffefffffffffffff, 0x3ff0000000000000}
		out := make([]K, len(bits))
		for i, b := range bits {
			out[i] = any(math.Float64frombits(b)).(K)
		}
		return out
	case int32:
		return []K{any(int32(math.MinInt32)).(K), any(int32(math.MaxInt32)).(K), any(int32(-1)).(K), any(int32(0)).(K)}
	case int64:
		return []K{any(int64(math.MinInt64)).(K), any(int64(math.MaxInt64)).(K), any(int64(-1)).(K), any(int64(0)).(K)}
	case uint32:
		return []K{any(uint32(math.MaxUint32)).(K), 0}
	case uint64:
		return []K{any(uint64(math.MaxUint64)).(K), 0}
	}
	return nil
}

// randomKeys returns n keys of K: random bits, with special keys mixed
// in, and for a narrow spread only a few distinct values.
func randomKeys[K sorts.Key](r *rand.Rand, n int, narrow bool) []K {
	special := specialKeys[K]()
	keys := make([]K, n)
	for i := range keys {
		b := r.Uint64()
		if narrow {
			b %= 5
		}
		var k K
		switch any(k).(type) {
		case float32:
			k = any(math.Float32frombits(uint32(b))).(K)
		case float64:
			k = any(math.Float64frombits(b)).(K)
		case uint32:
			k = any(uint32(b)).(K)
		case int32:
			k = any(int32(uint32(b))).(K)
		case uint64:
			k = any(b).(K)
		case int64:
			k = any(int64(b)).(K)
		}
		if r.IntN(8) == 0 {
			k = special[r.IntN(len(special))]
		}
		keys[i] = k
	}
	return keys
}

// keyOrder returns the comparison of keys in the order a radix sort
// leaves them: by orderOf, or its reverse when descending.
func keyOrder[K sorts.Key](descending bool) func(a, b K) int {
	if descending {
		return func(a, b K) int { return cmp.Compare(orderOf(b), orderOf(a)) }
	}
	return func(a, b K) int { return cmp.Compare(orderOf(a), orderOf(b)) }
}

// orderOptions returns the radix options that ask for the order: none, or
// Descending.
func orderOptions(descending bool) []sorts.RadixOption {
	if descending {
		return []sorts.RadixOption{sorts.Descending()}
	}
	return nil
}

// sortedRef returns keys stably sorted by keyOrder(descending).
func sortedRef[K sorts.Key](keys []K, descending bool) []K {
	want := slices.Clone(keys)
	slices.SortStableFunc(want, keyOrder[K](descending))
	return want
}

// sameBits returns where got and want differ bit for bit, or "".
func sameBits[K sorts.Key](what string, got, want []K) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%s: %d results, want %d", what, len(got), len(want))
	}
	for i := range want {
		if bitsOf(got[i]) != bitsOf(want[i]) {
			return fmt.Sprintf("%s: [%d] = %v (bits %#x), want %v (bits %#x)", what, i, got[i], bitsOf(got[i]), want[i], bitsOf(want[i]))
		}
	}
	return ""
}

// checkKeyType sorts keys of K of the radix lengths by RadixSort and
// SortSlice, pairs them with their positions (SortPairs, 32- and 64-bit
// values) and argsorts them, and keeps their distinct ones, in ascending
// order or with Descending, comparing each with plain Go bit for bit.
func checkKeyType[K sorts.Key](t *testing.T, s *sorts.Sorter, dev runtime.Device, lengths []int, seed uint64, descending bool) {
	r := rand.New(rand.NewPCG(seed, 16))
	var k K
	name := fmt.Sprintf("%T", k)
	opts := orderOptions(descending)
	for _, n := range lengths {
		for _, narrow := range []bool{false, true} {
			keys := randomKeys[K](r, n, narrow)
			where := fmt.Sprintf("%s, %d keys (narrow %v, descending %v)", name, n, narrow, descending)
			want := sortedRef(keys, descending)
			checkRadixAndSlice(t, s, dev, where, keys, want, opts...)
			checkPairs[K, uint32](t, s, dev, where, keys, func(i int) uint32 { return uint32(i) }, descending)
			checkPairs[K, float64](t, s, dev, where, keys, func(i int) float64 { return float64(i) + 0.5 }, descending)
			checkArgsort(t, s, dev, where, keys, descending)
			unique, err := sorts.SortUniqueSlice(s, keys, opts...)
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			wantUnique := slices.CompactFunc(slices.Clone(want), func(a, b K) bool { return bitsOf(a) == bitsOf(b) })
			if msg := sameBits("SortUniqueSlice of "+where, unique, wantUnique); msg != "" {
				t.Error(msg)
			}
		}
	}
}

// checkPairs sorts keys with values value(i) by SortPairs, in ascending
// order or with Descending, and checks that the values follow their keys
// stably.
func checkPairs[K sorts.Key, V sorts.Value](t *testing.T, s *sorts.Sorter, dev runtime.Device, where string, keys []K, value func(int) V,
	descending bool) {
	t.Helper()
	vals := make([]V, len(keys))
	for i := range vals {
		vals[i] = value(i)
	}
	type pair struct {
		k K
		v V
	}
	ps := make([]pair, len(keys))
	for i := range ps {
		ps[i] = pair{keys[i], vals[i]}
	}
	order := keyOrder[K](descending)
	slices.SortStableFunc(ps, func(a, b pair) int { return order(a.k, b.k) })
	kb, err := runtime.FromSlice(dev, keys)
	if err != nil {
		t.Fatal(err)
	}
	defer kb.Free()
	vb, err := runtime.FromSlice(dev, vals)
	if err != nil {
		t.Fatal(err)
	}
	defer vb.Free()
	ok, err := runtime.Alloc[K](dev, len(keys))
	if err != nil {
		t.Fatal(err)
	}
	defer ok.Free()
	ov, err := runtime.Alloc[V](dev, len(keys))
	if err != nil {
		t.Fatal(err)
	}
	defer ov.Free()
	if err := sorts.SortPairs(s, ok, ov, kb, vb, orderOptions(descending)...); err != nil {
		t.Fatalf("SortPairs of %s: %v", where, err)
	}
	gotK, err := ok.ToSlice()
	if err != nil {
		t.Fatal(err)
	}
	gotV, err := ov.ToSlice()
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		if bitsOf(gotK[i]) != bitsOf(p.k) || gotV[i] != p.v {
			t.Errorf("SortPairs[%T] of %s: [%d] = (%v, %v), want (%v, %v)", p.v, where, i, gotK[i], gotV[i], p.k, p.v)
			return
		}
	}
}

// checkArgsort checks Argsort, in ascending order or with Descending,
// against a stable sort of the positions.
func checkArgsort[K sorts.Key](t *testing.T, s *sorts.Sorter, dev runtime.Device, where string, keys []K, descending bool) {
	t.Helper()
	want := make([]uint32, len(keys))
	for i := range want {
		want[i] = uint32(i)
	}
	order := keyOrder[K](descending)
	slices.SortStableFunc(want, func(a, b uint32) int { return order(keys[a], keys[b]) })
	kb, err := runtime.FromSlice(dev, keys)
	if err != nil {
		t.Fatal(err)
	}
	defer kb.Free()
	out, err := runtime.Alloc[uint32](dev, len(keys))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Free()
	if err := sorts.Argsort(s, out, kb, orderOptions(descending)...); err != nil {
		t.Fatalf("Argsort of %s: %v", where, err)
	}
	got, err := out.ToSlice()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("Argsort of %s: %v..., want %v...", where, got[:min(8, len(got))], want[:min(8, len(want))])
	}
}

// TestRadixKeyTypes checks the radix sort of every key type on the CPU
// evaluator (totalOrder for floats, bit for bit), with pairs, argsort and
// unique, in both orders: in tiles of 128 keys, and in one block
// (kernels.RadixBlockKernel, the default for so few keys); both again with
// the keys ranked by counters (kernels.RankByCounters), for float32 and
// int64 keys; in unpadded tiles of 192 keys (kernels.RadixShape.Unpadded),
// for uint32 and float64 keys; and by the rank sort, for int32 and float64
// keys.
func TestRadixKeyTypes(t *testing.T) {
	tiled, dev := smallTiles(t)
	newSorter := func(passes, block kernels.RadixShape) *sorts.Sorter {
		s, err := sorts.New(dev)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		s.SetRadixShape(passes)
		s.SetBlockShape(block)
		return s
	}
	block := newSorter(kernels.RadixShape{}, kernels.RadixShape{})
	countedTiles := newSorter(kernels.RadixShape{Threads: 64, PerThread: 2, Bits: 5, Window: 3, Rank: kernels.RankByCounters},
		kernels.RadixShape{})
	countedBlock := newSorter(kernels.RadixShape{}, kernels.RadixShape{Threads: 64, PerThread: 8, Bits: 5, Rank: kernels.RankByCounters})
	unpadded := newSorter(kernels.RadixShape{Threads: 64, PerThread: 3, Bits: 8, Window: 3, Unpadded: true}, kernels.RadixShape{})
	seed := proptest.Seed(t)
	for _, c := range []struct {
		s          *sorts.Sorter
		lengths    []int
		descending bool
	}{{tiled, []int{1, 2, 129, 300}, false}, {block, []int{2, 300}, false}, {tiled, []int{2, 300}, true}, {block, []int{300}, true}} {
		checkKeyType[uint32](t, c.s, dev, c.lengths, seed, c.descending)
		checkKeyType[int32](t, c.s, dev, c.lengths, seed, c.descending)
		checkKeyType[float32](t, c.s, dev, c.lengths, seed, c.descending)
		checkKeyType[uint64](t, c.s, dev, c.lengths, seed, c.descending)
		checkKeyType[int64](t, c.s, dev, c.lengths, seed, c.descending)
		checkKeyType[float64](t, c.s, dev, c.lengths, seed, c.descending)
	}
	// Counters rank bits, whatever the key type made them: a 32-bit and a
	// 64-bit type, with signs and float order, suffice.
	for _, s := range []*sorts.Sorter{countedTiles, countedBlock} {
		checkKeyType[float32](t, s, dev, []int{2, 129, 300}, seed, false)
		checkKeyType[int64](t, s, dev, []int{2, 129, 300}, seed, false)
	}
	checkKeyType[float64](t, countedTiles, dev, []int{129}, seed, true)
	// Tiles laid out in shared memory at their ranks, unpadded: 4-byte keys
	// (values moved with their keys) and 8-byte keys (values after them).
	for _, descending := range []bool{false, true} {
		checkKeyType[uint32](t, unpadded, dev, []int{2, 193, 300}, seed, descending)
		checkKeyType[float64](t, unpadded, dev, []int{193, 300}, seed, descending)
	}
	// The rank sort (on a GPU, the one-launch sort of up to a few thousand
	// keys) compares whole keys: each sign and width, in both orders.
	ranked := newSorter(kernels.RadixShape{}, kernels.RadixShape{})
	ranked.SetRankSortWarps(4)
	for _, descending := range []bool{false, true} {
		checkKeyType[int32](t, ranked, dev, []int{2, 300}, seed, descending)
		checkKeyType[float64](t, ranked, dev, []int{2, 300}, seed, descending)
	}
}

// TestGPURadixKeyTypes checks the radix sort of every key type, in both
// orders, with pairs, argsort and unique on the GPU on fresh random keys
// (2000 of each, one block; 4097; 2^20+3, several thousand tiles), against
// plain Go: the key types and orders at once, each with a Sorter of its
// own (so that their kernels compile at once).
func TestGPURadixKeyTypes(t *testing.T) {
	g := gputest.Open(t)
	lengths := []int{1, 2000, 4097, 1<<20 + 3}
	seed := proptest.Seed(t)
	check := func(types *testing.T, name string, checkType func(t *testing.T, s *sorts.Sorter)) {
		types.Run(name, func(t *testing.T) {
			t.Parallel()
			s, err := sorts.New(g)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			checkType(t, s)
		})
	}
	t.Run("types", func(types *testing.T) {
		for _, descending := range []bool{false, true} {
			name := fmt.Sprintf(" descending=%v", descending)
			check(types, "uint32"+name, func(t *testing.T, s *sorts.Sorter) { checkKeyType[uint32](t, s, g, lengths, seed, descending) })
			check(types, "int32"+name, func(t *testing.T, s *sorts.Sorter) { checkKeyType[int32](t, s, g, lengths, seed, descending) })
			check(types, "float32"+name, func(t *testing.T, s *sorts.Sorter) { checkKeyType[float32](t, s, g, lengths, seed, descending) })
			check(types, "uint64"+name, func(t *testing.T, s *sorts.Sorter) { checkKeyType[uint64](t, s, g, lengths, seed, descending) })
			check(types, "int64"+name, func(t *testing.T, s *sorts.Sorter) { checkKeyType[int64](t, s, g, lengths, seed, descending) })
			check(types, "float64"+name, func(t *testing.T, s *sorts.Sorter) { checkKeyType[float64](t, s, g, lengths, seed, descending) })
		}
	})
}

// TestGPURadixUint32 sorts 2^24+5 fresh random uint32 keys (2^28 with
// -long, or $OBSIDIAN_RADIX_N) by RadixSort on the GPU and compares with
// slices.Sort; then Sort of the first 2^20 of them (or all, if fewer),
// which span every uint32.
func TestGPURadixUint32(t *testing.T) {
	g := gputest.Open(t)
	n := 1<<24 + 5
	if testing.Short() {
		n = 1<<20 + 5
	}
	if *longFlag() {
		n = 1 << 28
	}
	if v := radixN(); v > 0 {
		n = v
	}
	s, err := sorts.New(g)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	seed := rand.Uint64()
	t.Logf("%d keys, seed %d", n, seed)
	r := rand.New(rand.NewPCG(seed, 17))
	keys := make([]uint32, n)
	for i := range keys {
		keys[i] = r.Uint32()
	}
	got, err := radixSorted(s, g, keys)
	if err != nil {
		t.Fatal(err)
	}
	if msg := checkSorted("RadixSort on the GPU", got, keys); msg != "" {
		t.Error(msg)
	}
	some := keys[:min(n, 1<<20)]
	got, err = s.Sort(some)
	if err != nil {
		t.Fatal(err)
	}
	if msg := checkSorted("Sort on the GPU", got, some); msg != "" {
		t.Error(msg)
	}
}

// TestRadixPassesOfOneDigit sorts keys in which some or every pass finds
// one digit only (all keys equal; keys below 2^8; keys differing only in
// bits 8 to 15), which the passes copy instead of ranking: RadixSort,
// SortPairs and Argsort against plain Go, over many tiles.
func TestRadixPassesOfOneDigit(t *testing.T) {
	s, dev := smallTiles(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 22))
	v := r.Uint32()
	for _, c := range []struct {
		name string
		key  func() uint32
	}{
		{"all equal", func() uint32 { return v }},
		{"below 2^8", func() uint32 { return r.Uint32N(1 << 8) }},
		{"bits 8 to 15", func() uint32 { return v&^0xff00 | r.Uint32N(1<<8)<<8 }},
	} {
		for _, n := range []int{1000, 129} {
			keys := make([]uint32, n)
			for i := range keys {
				keys[i] = c.key()
			}
			where := fmt.Sprintf("%d keys, %s", n, c.name)
			got, err := radixSorted(s, dev, keys)
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			if msg := checkSorted("RadixSort of "+where, got, keys); msg != "" {
				t.Error(msg)
			}
			checkPairs[uint32, uint32](t, s, dev, where, keys, func(i int) uint32 { return uint32(i) }, false)
			checkArgsort(t, s, dev, where, keys, false)
		}
	}
}

// runKeys returns n keys of K in runs of shortest to 8 × shortest equal
// keys, the runs' keys random (special keys mixed in).
func runKeys[K sorts.Key](r *rand.Rand, n, shortest int) []K {
	values := randomKeys[K](r, n/shortest+1, false)
	keys := make([]K, 0, n)
	for v := 0; len(keys) < n; v++ {
		for range min(shortest+r.IntN(7*shortest+1), n-len(keys)) {
			keys = append(keys, values[v])
		}
	}
	return keys
}

// checkOneDigitTiles sorts n keys of K in runs of at least shortest equal
// keys, and the same keys sorted, by RadixSort, SortPairs and Argsort,
// for each n of lengths, and compares them with Go: the runs in ascending
// order, the sorted runs in both orders.
func checkOneDigitTiles[K sorts.Key](t *testing.T, s *sorts.Sorter, dev runtime.Device, r *rand.Rand, lengths []int, shortest int) {
	for _, n := range lengths {
		keys := runKeys[K](r, n, shortest)
		for _, c := range []struct {
			order      string
			descending bool
		}{{"runs", false}, {"sorted runs", false}, {"sorted runs", true}} {
			if c.order == "sorted runs" {
				keys = sortedRef(keys, false)
			}
			where := fmt.Sprintf("%d %T keys in %s (descending %v)", n, keys[0], c.order, c.descending)
			got, err := radixSorted(s, dev, keys, orderOptions(c.descending)...)
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			if msg := sameBits("RadixSort of "+where, got, sortedRef(keys, c.descending)); msg != "" {
				t.Error(msg)
			}
			checkPairs[K, uint32](t, s, dev, where, keys, func(i int) uint32 { return uint32(i) }, c.descending)
			checkPairs[K, float64](t, s, dev, where, keys, func(i int) float64 { return float64(i) + 0.5 }, c.descending)
			checkArgsort(t, s, dev, where, keys, c.descending)
		}
	}
}

// TestRadixTilesOfOneDigit checks the radix sort of keys in long runs of
// equal keys, in tiles of 128 keys, where after the first pass most tiles
// hold keys of one digit and move without ranking: keys alone, pairs and
// argsort, of uint32 and float64 keys.
func TestRadixTilesOfOneDigit(t *testing.T) {
	s, dev := smallTiles(t)
	seed := proptest.Seed(t)
	r := rand.New(rand.NewPCG(seed, 31))
	checkOneDigitTiles[uint32](t, s, dev, r, []int{129, 1500}, 50)
	checkOneDigitTiles[float64](t, s, dev, r, []int{129, 1500}, 50)
}

// TestGPURadixTilesOfOneDigit is TestRadixTilesOfOneDigit on the GPU on
// fresh random keys: 2^20+7 and 3·2^18 keys of every key type in runs of
// 2^12 to 2^15 equal keys, longer than the tiles of 4096 keys.
func TestGPURadixTilesOfOneDigit(t *testing.T) {
	g := gputest.Open(t)
	s, err := sorts.New(g)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	seed := proptest.Seed(t)
	r := rand.New(rand.NewPCG(seed, 37))
	lengths := []int{1<<20 + 7, 3 << 18}
	checkOneDigitTiles[uint32](t, s, g, r, lengths, 1<<12)
	checkOneDigitTiles[int32](t, s, g, r, lengths, 1<<12)
	checkOneDigitTiles[float32](t, s, g, r, lengths, 1<<12)
	checkOneDigitTiles[uint64](t, s, g, r, lengths, 1<<12)
	checkOneDigitTiles[int64](t, s, g, r, lengths, 1<<12)
	checkOneDigitTiles[float64](t, s, g, r, lengths, 1<<12)
}

// checkBitsInOrder sorts keys of K by random ranges of their bits, in
// both orders, by RadixSort and SortSlice, and compares with a stable Go
// sort of the bits asked for: keys that differ only outside them keep
// their order.
func checkBitsInOrder[K sorts.Key](t *testing.T, s *sorts.Sorter, dev runtime.Device, r *rand.Rand, n int) {
	width := 8 * runtime.TypeOf[K]().Size()
	for range 4 {
		begin := r.IntN(width)
		end := begin + 1 + r.IntN(min(width-begin, 12))
		keys := randomKeys[K](r, n, r.IntN(2) == 0)
		field := func(k K) uint64 { return orderOf(k) >> begin & (1<<(end-begin) - 1) }
		for _, descending := range []bool{false, true} {
			want := slices.Clone(keys)
			slices.SortStableFunc(want, func(a, b K) int {
				if descending {
					a, b = b, a
				}
				return cmp.Compare(field(a), field(b))
			})
			where := fmt.Sprintf("%d %T keys by bits [%d, %d) (descending %v)", n, keys[0], begin, end, descending)
			opts := append(orderOptions(descending), sorts.Bits(begin, end))
			checkRadixAndSlice(t, s, dev, where, keys, want, opts...)
		}
	}
}

// TestRadixBitsInOrder checks sorts by a range of bits in both orders on
// the CPU evaluator, in tiles of 128 keys, in one block and by the rank
// sort.
func TestRadixBitsInOrder(t *testing.T) {
	tiled, dev := smallTiles(t)
	block, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer block.Close()
	r := rand.New(rand.NewPCG(proptest.Seed(t), 17))
	ranked, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer ranked.Close()
	ranked.SetRankSortWarps(4)
	for _, s := range []*sorts.Sorter{tiled, block, ranked} {
		checkBitsInOrder[uint32](t, s, dev, r, 300)
		checkBitsInOrder[float32](t, s, dev, r, 300)
		checkBitsInOrder[int64](t, s, dev, r, 300)
	}
}

// checkRadixAndSlice sorts keys on dev with opts by RadixSort and by
// SortSlice and checks both against want, bit for bit.
func checkRadixAndSlice[K sorts.Key](t *testing.T, s *sorts.Sorter, dev runtime.Device, where string, keys, want []K,
	opts ...sorts.RadixOption) {
	t.Helper()
	got, err := radixSorted(s, dev, keys, opts...)
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	if msg := sameBits("RadixSort of "+where, got, want); msg != "" {
		t.Error(msg)
	}
	got, err = sorts.SortSlice(s, keys, opts...)
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	if msg := sameBits("SortSlice of "+where, got, want); msg != "" {
		t.Error(msg)
	}
}

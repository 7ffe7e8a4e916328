package main

import (
	"bytes"
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/runtime"
)

// cpuDistributions are the distributions the CPU tests measure: few keys
// of small ranges (the evaluator is far too slow for 2^24 bins), one the
// counting sorts refuse (few16: its range is about 2^32 wide) and one no
// method of ours sorts (U64).
var cpuDistributions = []string{"T4", "T7", "equal", "few16", "sorted", "reverse", "unique", "U64"}

// cpuMethods are the methods the CPU tests measure: one of each kind
// (counting sorts, the scan, the picked sort, the radix sort of two key
// types, a sorting network, 1-H-P for distinct keys), to keep the
// evaluator's time short.
var cpuMethods = func() []method {
	var ms []method
	for _, m := range ourMethods {
		switch m.label() {
		case obsCounting, obsOccurrence, obsScan, obsSort, obsRadixFull, "obs_net_bitonic", obsHPDistinct:
			ms = append(ms, m)
		}
	}
	return ms
}()

// cpuRows64 is how many rows of ours the CPU tests measure for n = 64:
// every one of cpuMethods that takes each of the cpuDistributions.
var cpuRows64 = func() int {
	rows := 0
	for _, name := range cpuDistributions {
		d, err := distributionNamed(name)
		if err != nil {
			panic(err)
		}
		switch d := d.(type) {
		case *dist[uint32]:
			rows += len(methodsTaking(d, 64, cpuMethods))
		case *dist[uint64]:
			rows += len(methodsTaking(d, 64, cpuMethods))
		case *dist[float32]:
			rows += len(methodsTaking(d, 64, cpuMethods))
		}
	}
	return rows
}()

// cpuOptions measures the cpuDistributions on the CPU evaluator.
func cpuOptions(dir string) options {
	opts := options{
		sizes:   []int{50, 64},
		runs:    minRuns,
		seed:    3,
		dir:     dir,
		device:  func() (runtime.Device, error) { return runtime.CPU(), nil },
		methods: cpuMethods,
	}
	for _, name := range cpuDistributions {
		d, err := distributionNamed(name)
		if err != nil {
			panic(err)
		}
		opts.dists = append(opts.dists, d)
	}
	return opts
}

// TestMeasureOnTheCPU runs the whole measurement on the CPU evaluator,
// merging a baseline CSV, and checks the CSV, charts and table it writes.
func TestMeasureOnTheCPU(t *testing.T) {
	dir := t.TempDir()
	cub := filepath.Join(dir, "cub.csv")
	cubRows := []row{{n: 64, dist: "T4", method: cubRadixBits, medianMS: 0.5, minMS: 0.4, maxMS: 0.6, runs: 15}}
	if err := writeCSVFile(cub, cubRows); err != nil {
		t.Fatal(err)
	}
	opts := cpuOptions(filepath.Join(dir, "out"))
	opts.cubCSV = cub
	var stdout, stderr bytes.Buffer
	if err := execute(opts, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	rows, err := readCSVFile(filepath.Join(opts.dir, csvName))
	if err != nil {
		t.Fatal(err)
	}
	if want := 2*cpuRows64 + 1; len(rows) != want {
		t.Fatalf("%d rows, want %d:\n%v", len(rows), want, rows)
	}
	for _, r := range rows {
		if r.method == cubRadixBits {
			continue
		}
		if r.runs != minRuns || r.minMS > r.medianMS || r.medianMS > r.maxMS || r.maxMS <= 0 {
			t.Errorf("implausible timing %+v", r)
		}
		counting := strings.HasPrefix(r.method, "obs_counting") || strings.HasPrefix(r.method, "obs_occurrence") ||
			strings.HasPrefix(r.method, "obs_hp") || r.method == obsCountPairs
		if (r.dist == "U64" || r.dist == "few16") && counting ||
			r.method == obsHPDistinct && !slices.Contains([]string{"sorted", "reverse", "unique"}, r.dist) {
			t.Errorf("row %+v: that method does not take those keys", r)
		}
	}
	if !slices.ContainsFunc(rows, func(r row) bool { return r.method == obsHPDistinct && r.dist == "unique" }) {
		t.Error("no row of 1-H-P on unique keys")
	}
	if rows[0].n != 50 || rows[0].dist != "T4" || rows[0].method != obsCounting {
		t.Errorf("first row %+v, want n=50 T4 obs_counting", rows[0])
	}
	for _, name := range []string{chartName(50), chartName(64), ratioChartName(64), tableName} {
		if _, err := os.Stat(filepath.Join(opts.dir, name)); err != nil {
			t.Error(err)
		}
	}
	if _, err := os.Stat(filepath.Join(opts.dir, ratioChartName(50))); err == nil {
		t.Error("a ratio chart for n=50, which has no baseline rows")
	}
	if !strings.Contains(stdout.String(), "obs_counting / cub_radix_bits") {
		t.Errorf("ratio grid:\n%s", stdout.String())
	}
	if !strings.Contains(stderr.String(), "n=64 dist=unique: obs_counting") || !strings.Contains(stderr.String(), "dist=U64: obs_radix_full") {
		t.Errorf("progress lines:\n%s", stderr.String())
	}
}

// hostMethod returns a method of K that sorts on the host (reading the
// keys back and writing the result with CopyFrom), writing what result
// returns for the keys: for tests of the harness's checks.
func hostMethod[K key](name string, values bool, check func(*call[K], int, *reference[K]) error,
	result func(keys []K) ([]K, []uint32)) *sortMethod[K] {
	return &sortMethod[K]{
		name: name, against: cubRadixFull, values: values, check: check,
		run: func(_ *bench, c *call[K]) (int, error) {
			keys, err := c.keys.ToSlice()
			if err != nil {
				return 0, err
			}
			out, vals := result(keys)
			if err := c.out.View(0, len(out)).CopyFrom(out); err != nil {
				return 0, err
			}
			if vals != nil {
				if err := c.valuesOut.CopyFrom(vals); err != nil {
					return 0, err
				}
			}
			return len(out), nil
		},
	}
}

// argsort returns keys sorted and the stable argsort.
func argsort[K key](keys []K) ([]K, []uint32) {
	return argsortBy(keys, func(a, b K) int { return cmp.Compare(a, b) })
}

// argsortDescending returns keys sorted largest first and the stable
// argsort into that order.
func argsortDescending[K key](keys []K) ([]K, []uint32) {
	return argsortBy(keys, func(a, b K) int { return cmp.Compare(b, a) })
}

// argsortBy returns keys sorted by order and the stable argsort.
func argsortBy[K key](keys []K, order func(a, b K) int) ([]K, []uint32) {
	idx := fill(len(keys), func(i int) uint32 { return uint32(i) })
	slices.SortStableFunc(idx, func(a, b uint32) int { return order(keys[a], keys[b]) })
	sorted := fill(len(keys), func(i int) K { return keys[idx[i]] })
	return sorted, idx
}

// argsortOnly checks the values alone of a method whose keys are left as
// they were: the stable argsort of the keys.
func argsortOnly[K key](c *call[K], count int, ref *reference[K]) error {
	return checkArgsort(c, count, ref.keys, ref.sorted)
}

// TestMethodsOfOtherKeyTypes runs methods of uint64, float32 and pairs
// through the harness on the CPU: each right one passes its check and
// gives a row for its own key type only; each wrong one fails its check.
func TestMethodsOfOtherKeyTypes(t *testing.T) {
	b, err := newBench(runtime.CPU(), minRuns, 1, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.close()
	b.dists = []distribution{distNamed(t, "U64"), distNamed(t, "F32"), distNamed(t, "few16")}
	right := []method{
		hostMethod("sort64", false, checkSorted[uint64], func(k []uint64) ([]uint64, []uint32) { return sortedCopy(k), nil }),
		hostMethod("sortf32", false, checkSorted[float32], func(k []float32) ([]float32, []uint32) { return sortedCopy(k), nil }),
		hostMethod("pairs", true, checkPairs[uint32], argsort[uint32]),
		hostMethod("argsort", true, argsortOnly[float32], func(k []float32) ([]float32, []uint32) {
			_, idx := argsort(k)
			return k, idx
		}),
		hostMethod("sort64_desc", false, checkDescending[uint64], func(k []uint64) ([]uint64, []uint32) {
			sorted := sortedCopy(k)
			slices.Reverse(sorted)
			return sorted, nil
		}),
		hostMethod("pairs_desc", true, checkPairsDescending[uint32], argsortDescending[uint32]),
	}
	b.methods = right
	rows, err := b.measure([]int{300})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, r.dist+"/"+r.method)
	}
	if want := []string{"U64/sort64", "U64/sort64_desc", "F32/sortf32", "F32/argsort", "few16/pairs", "few16/pairs_desc"}; !slices.Equal(got, want) {
		t.Errorf("rows %v, want %v", got, want)
	}
	for _, m := range []method{
		hostMethod("nothing", false, checkSorted[float32], func(k []float32) ([]float32, []uint32) { return k[:0:0], nil }),
		hostMethod("unsorted", false, checkSorted[uint64], func(k []uint64) ([]uint64, []uint32) { return k, nil }),
		hostMethod("unstable", true, checkPairs[uint32], func(k []uint32) ([]uint32, []uint32) {
			sorted, idx := argsort(k)
			for i := 1; i < len(idx); i++ {
				if sorted[i] == sorted[i-1] {
					idx[i], idx[i-1] = idx[i-1], idx[i]
					break
				}
			}
			return sorted, idx
		}),
		hostMethod("wrong_index", true, argsortOnly[float32], func(k []float32) ([]float32, []uint32) {
			_, idx := argsort(k)
			idx[7] = idx[8]
			return k, idx
		}),
		hostMethod("ascending_for_desc", false, checkDescending[uint64], func(k []uint64) ([]uint64, []uint32) { return sortedCopy(k), nil }),
		hostMethod("ascending_pairs_for_desc", true, checkPairsDescending[uint32], argsort[uint32]),
		hostMethod("unstable_desc", true, checkPairsDescending[uint32], func(k []uint32) ([]uint32, []uint32) {
			sorted, idx := argsortDescending(k)
			for i := 1; i < len(idx); i++ {
				if sorted[i] == sorted[i-1] {
					idx[i], idx[i-1] = idx[i-1], idx[i]
					break
				}
			}
			return sorted, idx
		}),
	} {
		b.methods = []method{m}
		if _, err := b.measure([]int{300}); err == nil || !strings.Contains(err.Error(), "method="+m.label()) {
			t.Errorf("%s: error %v, want a failed check", m.label(), err)
		}
	}
}

// TestWrongResultIsAnError runs sorts that report one result too few or
// too many, and one that writes nothing: each must fail the check.
func TestWrongResultIsAnError(t *testing.T) {
	b, err := newBench(runtime.CPU(), minRuns, 1, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.close()
	b.dists = []distribution{uniform(4)}
	counting := ourMethods[0].(*sortMethod[uint32])
	occurrence := ourMethods[1].(*sortMethod[uint32])
	for _, m := range []*sortMethod[uint32]{
		{
			name: "drops_one",
			run: func(b *bench, c *call[uint32]) (int, error) {
				n, err := counting.run(b, c)
				return n - 1, err
			},
			check: checkSorted[uint32],
		},
		{
			name:  "writes_nothing",
			run:   func(_ *bench, c *call[uint32]) (int, error) { return c.keys.Len(), nil },
			check: checkSorted[uint32],
		},
		{
			name: "miscounts",
			run: func(b *bench, c *call[uint32]) (int, error) {
				n, err := occurrence.run(b, c)
				return n + 1, err
			},
			check: checkDistinct[uint32],
		},
	} {
		b.methods = []method{m}
		_, err := b.measure([]int{40})
		if err == nil || !strings.Contains(err.Error(), "method="+m.name) {
			t.Errorf("%s: error %v, want a failed check", m.name, err)
		}
	}
}

// TestMethodFiltering checks which of ourMethods each distribution gets:
// the counting sorts only uint32 keys of a range they can hold, 1-H-P only
// distinct ones, the scan, the radix sorts (in both orders) and the picked
// sort every uint32 distribution, and the float and uint64 keys their radix
// sorts.
func TestMethodFiltering(t *testing.T) {
	distinct := methodNames(ourMethods)
	all := slices.DeleteFunc(slices.Clone(distinct), func(m string) bool { return m == obsHPDistinct })
	wide := append([]string{obsScan, obsSort, obsRadixBits, obsRadixFull, obsPairsFull, obsRadixDesc, obsPairsDesc, obsPairsBits, obsNotesRadix},
		methodNames(networkMethods())...)
	for _, tc := range []struct {
		dist string
		n    int
		want []string
	}{
		{"T4", 1 << 10, all},
		{"T24", 1 << 27, all},
		{"T32", 1 << 10, wide},
		{"skewed", 1 << 10, wide},
		{"few16", 1 << 10, wide},
		{"equal", 1 << 10, all},
		{"sorted", 1 << 30, distinct},
		{"reverse", 1 << 10, distinct},
		{"unique", 1_000_003, distinct},
		{"U64", 1 << 10, []string{obsRadixFull, obsPairsFull, obsRadixDesc, obsPairsDesc}},
		{"F32", 1 << 10, []string{obsRadixFull, obsRadixDesc}},
	} {
		var got []string
		switch d := distNamed(t, tc.dist).(type) {
		case *dist[uint32]:
			got = methodsTaking(d, tc.n, ourMethods)
		case *dist[uint64]:
			got = methodsTaking(d, tc.n, ourMethods)
		case *dist[float32]:
			got = methodsTaking(d, tc.n, ourMethods)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s, n=%d: methods %v, want %v", tc.dist, tc.n, got, tc.want)
		}
	}
	for _, tc := range []struct {
		s    span
		want bool
	}{
		{span{0, 1<<30 - 1}, true},
		{span{0, 1 << 30}, false},
		{span{1 << 31, 1<<31 + 1<<30 - 1}, true},
		{span{1<<32 - 2, 1<<32 - 2}, true},
		{span{1<<32 - 1, 1<<32 - 1}, false}, // its end, 2^32, is no uint32
	} {
		if got := countingRange(tc.s); got != tc.want {
			t.Errorf("countingRange(%+v) = %v, want %v", tc.s, got, tc.want)
		}
	}
}

// methodsTaking returns the names of ourMethods that take n keys of d
// (seed 1).
func methodsTaking[K key](d *dist[K], n int, methods []method) []string {
	s, ok := d.spanOf(n, 1)
	var names []string
	for _, m := range d.methodsFor(methods, s, ok) {
		names = append(names, m.name)
	}
	return names
}

func TestMedian(t *testing.T) {
	if got := median([]float64{1, 2, 9}); got != 2 {
		t.Errorf("median of 3 = %v", got)
	}
	if got := median([]float64{1, 2, 4, 9}); got != 3 {
		t.Errorf("median of 4 = %v", got)
	}
}

// TestCompareChecksEveryElement finds a single wrong element.
func TestCompareChecksEveryElement(t *testing.T) {
	want := []uint32{1, 2, 3, 4}
	buf, err := runtime.FromSlice(runtime.CPU(), []uint32{1, 2, 3, 5})
	if err != nil {
		t.Fatal(err)
	}
	if err := compare(buf, 4, want); err == nil || !strings.Contains(err.Error(), "element 3 is 5, want 4") {
		t.Errorf("compare: %v", err)
	}
	if err := compare(buf, 3, want[:3]); err != nil {
		t.Errorf("compare of a correct prefix: %v", err)
	}
	if !slices.Equal(want, []uint32{1, 2, 3, 4}) {
		t.Error("compare changed want")
	}
}

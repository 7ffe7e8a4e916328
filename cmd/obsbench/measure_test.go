package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/runtime"
)

// cpuOptions measures on the CPU evaluator a few small distributions (the
// evaluator is far too slow for 2^24 bins).
func cpuOptions(dir string) options {
	return options{
		sizes:  []int{50, 64},
		runs:   minRuns,
		seed:   3,
		dir:    dir,
		device: func() (runtime.Device, error) { return runtime.CPU(), nil },
		dists: []distribution{
			{name: "T4", shape: uniformBits, bits: 4},
			{name: "T7", shape: uniformBits, bits: 7},
			{name: "sorted", shape: ascending},
			{name: "unique", shape: permutation},
		},
	}
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
	if want := 2*4*len(ourMethods) + 1; len(rows) != want {
		t.Fatalf("%d rows, want %d:\n%v", len(rows), want, rows)
	}
	for _, r := range rows {
		if r.method == cubRadixBits {
			continue
		}
		if r.runs != minRuns || r.minMS > r.medianMS || r.medianMS > r.maxMS || r.maxMS <= 0 {
			t.Errorf("implausible timing %+v", r)
		}
	}
	if rows[0].n != 50 || rows[0].dist != "T4" || rows[0].method != obsCounting {
		t.Errorf("first row %+v, want n=50 T4 obs_counting", rows[0])
	}
	for _, name := range []string{chartName(50), chartName(64), tableName} {
		if _, err := os.Stat(filepath.Join(opts.dir, name)); err != nil {
			t.Error(err)
		}
	}
	if !strings.Contains(stdout.String(), "| T4 |") || strings.Contains(stdout.String(), "| T4 | – |") {
		t.Errorf("table:\n%s", stdout.String())
	}
	if !strings.Contains(stderr.String(), "n=64 dist=unique: obs_counting") {
		t.Errorf("no progress line for n=64 unique:\n%s", stderr.String())
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
	b.dists = []distribution{{name: "T4", shape: uniformBits, bits: 4}}
	for _, m := range []method{
		{
			name: "drops_one",
			sort: func(b *bench, out, keys *runtime.Buffer[uint32], hi uint32) (int, error) {
				return keys.Len() - 1, b.sorter.CountingSort(out, keys, 0, hi)
			},
			want: sortedKeys,
		},
		{
			name: "writes_nothing",
			sort: func(_ *bench, _, keys *runtime.Buffer[uint32], _ uint32) (int, error) {
				return keys.Len(), nil
			},
			want: sortedKeys,
		},
		{
			name: "miscounts",
			sort: func(b *bench, out, keys *runtime.Buffer[uint32], hi uint32) (int, error) {
				n, err := b.sorter.OccurrenceSort(out, keys, 0, hi)
				return n + 1, err
			},
			want: distinctKeys,
		},
	} {
		b.methods = []method{m}
		_, err := b.measure([]int{40})
		if err == nil || !strings.Contains(err.Error(), "method="+m.name) {
			t.Errorf("%s: error %v, want a failed check", m.name, err)
		}
	}
}

func TestMedian(t *testing.T) {
	if got := median([]float64{1, 2, 9}); got != 2 {
		t.Errorf("median of 3 = %v", got)
	}
	if got := median([]float64{1, 2, 4, 9}); got != 3 {
		t.Errorf("median of 4 = %v", got)
	}
}

// TestCheckComparesEveryElement finds a single wrong element.
func TestCheckComparesEveryElement(t *testing.T) {
	want := []uint32{1, 2, 3, 4}
	buf, err := runtime.FromSlice(runtime.CPU(), []uint32{1, 2, 3, 5})
	if err != nil {
		t.Fatal(err)
	}
	if err := check(buf, 4, want); err == nil || !strings.Contains(err.Error(), "element 3 is 5, want 4") {
		t.Errorf("check: %v", err)
	}
	if err := check(buf, 3, want[:3]); err != nil {
		t.Errorf("check of a correct prefix: %v", err)
	}
	if !slices.Equal(want, []uint32{1, 2, 3, 4}) {
		t.Error("check changed want")
	}
}

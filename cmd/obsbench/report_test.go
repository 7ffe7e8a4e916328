package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// syntheticRows are measurements for two key counts, with a method the
// charts do not know, a distribution missing for one method and one the
// benchmark does not know.
func syntheticRows() []row {
	var rows []row
	for _, n := range []int{1 << 10, 1_000_003} {
		for i, dist := range []string{"T4", "T5", "U64", "sorted", "unique", "mystery"} {
			scale := float64(n>>10) * float64(i+1)
			for _, m := range []struct {
				name string
				ms   float64
			}{{obsCounting, 40}, {obsOccurrence, 0.1}, {obsScan, 0.09}, {cubRadixBits, 0.5}, {cubSortUnique, 0.4},
				{cubScan, 0.1}, {memcpyMethod, 0.01}, {"other_sort", 0.2}} {
				if m.name == cubSortUnique && dist == "T5" || strings.HasPrefix(m.name, "obs_") && dist == "U64" {
					continue
				}
				rows = append(rows, row{n: n, dist: dist, method: m.name, medianMS: m.ms * scale, minMS: m.ms * scale, maxMS: m.ms * scale, runs: 15})
			}
		}
	}
	return rows
}

// TestChartsOnlyRedrawsFromTheCSV writes a synthetic bench.csv and checks
// that -charts-only draws an SVG of times and one of ratios per key count,
// a table with every median and ratio, and prints the ratio grid.
func TestChartsOnlyRedrawsFromTheCSV(t *testing.T) {
	dir := t.TempDir()
	if err := writeCSVFile(filepath.Join(dir, csvName), syntheticRows()); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-charts-only", "-o", dir}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit status %d: %s", code, stderr.String())
	}
	for _, n := range []int{1 << 10, 1_000_003} {
		for name, wants := range map[string][]string{
			chartName(n):      {"<svg", obsCounting, cubSortUnique, "other_sort", "unique", "mystery", "log scale"},
			ratioChartName(n): {"<svg", "obs_counting / cub_radix_bits", "obs_scan / cub_scan", "ours = CUB", "unique"},
		} {
			svg, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range wants {
				if !bytes.Contains(svg, []byte(want)) {
					t.Errorf("%s does not contain %q", name, want)
				}
			}
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, tableName))
	if err != nil {
		t.Fatal(err)
	}
	text := string(md)
	// n = 1000003: scale 976 × (index+1); counting / radix = 40/0.5 = 80,
	// occurrence / sort+unique = 0.1/0.4 = 0.25, scan = 0.09/0.1 = 0.90.
	for _, want := range []string{
		"## 2^10 keys\n",
		"## 1000003 keys\n\nMedian milliseconds of 15 runs.\n",
		"| keys | type | obs_counting | obs_occurrence | obs_scan | cub_radix_bits | cub_sort_unique | cub_scan | memcpy | other_sort |\n",
		"| T4 | uint32 | 39040.000 | 97.600 | 87.840 | 488.000 | 390.400 | 97.600 | 9.760 | 195.200 |\n",
		"| U64 | uint64 | – | – | – | 1464.000 | 1171.200 | 292.800 | 29.280 | 585.600 |\n",
		"| mystery | – | ",
		"| keys | obs_counting / cub_radix_bits | obs_occurrence / cub_sort_unique | obs_scan / cub_scan |\n",
		"| T4 | **80.00** ▲ | 0.25 | 0.90 |\n",
		"| T5 | **80.00** ▲ | – | 0.90 |\n",
		"| U64 | – | – | – |\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("table lacks %q:\n%s", want, text)
		}
	}
	if strings.Index(text, "## 2^10") > strings.Index(text, "## 1000003") || strings.Index(text, "| sorted |") > strings.Index(text, "| mystery |") {
		t.Errorf("sections or rows out of order:\n%s", text)
	}
	grid := stdout.String()
	for _, want := range []string{
		"obs_counting / cub_radix_bits (below 1: ours faster; ▲ ours slower)\n",
		"obs_occurrence / cub_sort_unique",
		"obs_scan / cub_scan",
		"2^10  1000003",
		"80.00 ▲",
		"0.25",
	} {
		if !strings.Contains(grid, want) {
			t.Errorf("ratio grid lacks %q:\n%s", want, grid)
		}
	}
	if !slices.ContainsFunc(strings.Split(grid, "\n"), func(line string) bool {
		return slices.Equal(strings.Fields(line), []string{"T5", missing, missing})
	}) {
		t.Errorf("ratio grid has no line for T5 without its rival:\n%s", grid)
	}
}

// TestRatioCell checks the cell of a comparison: missing without both
// rows or with a zero rival, marked above 1.
func TestRatioCell(t *testing.T) {
	c := comparison{obsCounting, cubRadixBits}
	rows := []row{
		{n: 8, dist: "T4", method: obsCounting, medianMS: 3},
		{n: 8, dist: "T4", method: cubRadixBits, medianMS: 2},
		{n: 8, dist: "T5", method: obsCounting, medianMS: 1},
		{n: 8, dist: "T5", method: cubRadixBits, medianMS: 4},
		{n: 8, dist: "T6", method: obsCounting, medianMS: 1},
		{n: 8, dist: "T7", method: obsCounting, medianMS: 1},
		{n: 8, dist: "T7", method: cubRadixBits, medianMS: 0},
	}
	for dist, want := range map[string]string{"T4": "**1.50** ▲", "T5": "0.25", "T6": missing, "T7": missing, "T8": missing} {
		if got := ratioCell(rows, 8, dist, c, "**%.2f**"+slowerMark); got != want {
			t.Errorf("%s: cell %q, want %q", dist, got, want)
		}
	}
	if grid := ratioGrid(rows[4:5]); !strings.Contains(grid, "no ratios") {
		t.Errorf("grid without rivals:\n%s", grid)
	}
}

func TestLogScaleOnlyForWideSpreads(t *testing.T) {
	for _, tc := range []struct {
		values []float64
		want   bool
	}{
		{[]float64{0.1, 0.5, 1.9}, false},
		{[]float64{0.05, 0.5, 40}, true},
		{[]float64{0, 0.5, 40}, false},
		{nil, false},
	} {
		if got := logScale(tc.values); got != tc.want {
			t.Errorf("logScale(%v) = %v, want %v", tc.values, got, tc.want)
		}
	}
}

func TestChartsOnlyWithoutCSVFails(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-charts-only", "-o", t.TempDir()}, &stdout, &stderr); code != 1 {
		t.Errorf("exit status %d, want 1 (%s)", code, stderr.String())
	}
}

// TestComparisonsOnceEach checks that a method with an entry per key type
// (the radix sort's) gets one comparison with its rival, not one per entry.
func TestComparisonsOnceEach(t *testing.T) {
	rows := []row{{n: 8, dist: "T4", method: obsRadixFull, medianMS: 1}, {n: 8, dist: "T4", method: cubRadixFull, medianMS: 1}}
	got := 0
	for _, c := range comparisonsOf(rows, 8) {
		if c.ours == obsRadixFull {
			got++
		}
	}
	if got != 1 {
		t.Errorf("%d comparisons of %s, want 1", got, obsRadixFull)
	}
}

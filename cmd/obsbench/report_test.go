package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// syntheticRows are measurements for two key counts, with a method the
// charts do not know and a distribution missing for one method.
func syntheticRows() []row {
	var rows []row
	for _, n := range []int{1 << 10, 1 << 12} {
		for i, dist := range []string{"T4", "T5", "sorted", "unique"} {
			scale := float64(n>>10) * float64(i+1)
			for _, m := range []struct {
				name string
				ms   float64
			}{{obsCounting, 40}, {obsOccurrence, 0.1}, {cubRadixBits, 0.5}, {cubSortUnique, 0.4}, {memcpyMethod, 0.01}, {"other_sort", 0.2}} {
				if m.name == cubSortUnique && dist == "T5" {
					continue
				}
				rows = append(rows, row{n: n, dist: dist, method: m.name, medianMS: m.ms * scale, minMS: m.ms * scale, maxMS: m.ms * scale, runs: 15})
			}
		}
	}
	return rows
}

// TestChartsOnlyRedrawsFromTheCSV writes a synthetic bench.csv and checks
// that -charts-only draws an SVG per key count and a table with the right
// ratios, for the largest key count.
func TestChartsOnlyRedrawsFromTheCSV(t *testing.T) {
	dir := t.TempDir()
	if err := writeCSVFile(filepath.Join(dir, csvName), syntheticRows()); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-charts-only", "-o", dir}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit status %d: %s", code, stderr.String())
	}
	for _, n := range []int{1 << 10, 1 << 12} {
		svg, err := os.ReadFile(filepath.Join(dir, chartName(n)))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"<svg", obsCounting, cubSortUnique, "other_sort", "unique"} {
			if !bytes.Contains(svg, []byte(want)) {
				t.Errorf("%s does not contain %q", chartName(n), want)
			}
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, tableName))
	if err != nil {
		t.Fatal(err)
	}
	text := string(md)
	if stdout.String() != text {
		t.Errorf("stdout is not the table:\n%s", stdout.String())
	}
	// n = 2^12: scale 4 × (index+1); counting / radix = 40/0.5 = 80,
	// occurrence / sort+unique = 0.1/0.4 = 0.25.
	for _, want := range []string{
		"Sorting 2^12 uint32 keys",
		"15 runs",
		"| T4 | 160.000 | 2.000 | 80.00 | 0.400 | 1.600 | 0.25 |\n",
		"| T5 | 320.000 | 4.000 | 80.00 | 0.800 | – | – |\n",
		"| unique | 640.000 | 8.000 | 80.00 | 1.600 | 6.400 | 0.25 |\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("table lacks %q:\n%s", want, text)
		}
	}
	if strings.Count(text, "\n| ") != 5 || strings.Contains(text, "| 40.000 |") {
		t.Errorf("table should have a header and 4 rows, for 2^12 only:\n%s", text)
	}
}

func TestLogScaleOnlyForWideSpreads(t *testing.T) {
	for _, tc := range []struct {
		medians []float64
		want    bool
	}{
		{[]float64{0.1, 0.5, 1.9}, false},
		{[]float64{0.05, 0.5, 40}, true},
		{[]float64{0, 0.5, 40}, false},
		{nil, false},
	} {
		if got := logScale(tc.medians); got != tc.want {
			t.Errorf("logScale(%v) = %v, want %v", tc.medians, got, tc.want)
		}
	}
}

func TestChartsOnlyWithoutCSVFails(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-charts-only", "-o", t.TempDir()}, &stdout, &stderr); code != 1 {
		t.Errorf("exit status %d, want 1 (%s)", code, stderr.String())
	}
}

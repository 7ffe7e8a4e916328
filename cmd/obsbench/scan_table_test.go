package main

import (
	"strings"
	"testing"
)

// TestTableComparesTheScans checks that the table carries the scan's
// comparison with CUB's and the copy, and leaves it out without scan rows.
func TestTableComparesTheScans(t *testing.T) {
	rows := []row{
		{n: 1 << 25, dist: "T8", method: obsCounting, medianMS: 0.2, runs: 15},
		{n: 1 << 25, dist: "T8", method: obsScan, medianMS: 0.09, runs: 15},
		{n: 1 << 25, dist: "T8", method: cubScan, medianMS: 0.1, runs: 15},
		{n: 1 << 25, dist: "T8", method: memcpyMethod, medianMS: 0.069, runs: 15},
	}
	text, err := table(rows)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Exclusive scan", "| obs_scan (ms) | cub_scan (ms) | ratio | memcpy (ms) |",
		"| T8 | 0.090 | 0.100 | 0.90 | 0.069 |"} {
		if !strings.Contains(text, want) {
			t.Errorf("table lacks %q:\n%s", want, text)
		}
	}
	text, err = table(rows[:1])
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text, "Exclusive scan") {
		t.Errorf("table without scan rows has a scan section:\n%s", text)
	}
}

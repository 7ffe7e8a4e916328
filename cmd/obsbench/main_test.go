package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

func TestParseOptionsDefaults(t *testing.T) {
	opts, err := parseOptions(nil, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	want := []int{1 << 10, 1 << 16, 1_000_003, 1 << 20, 1 << 25, 1 << 27}
	if !slices.Equal(opts.sizes, want) || opts.runs != 15 || opts.seed != 1 || opts.dir != "docs/bench" {
		t.Errorf("defaults %+v", opts)
	}
	if got := namesOfDists(opts.dists); !slices.Equal(got, distOrder()) {
		t.Errorf("default distributions %v, want every one", got)
	}
}

// namesOfDists returns the distributions' names.
func namesOfDists(ds []distribution) []string {
	var names []string
	for _, d := range ds {
		names = append(names, d.label())
	}
	return names
}

// TestParseOptionsQuick checks -quick's sets, and that -n and -dist
// override them.
func TestParseOptionsQuick(t *testing.T) {
	opts, err := parseOptions([]string{"-quick"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(opts.sizes, quickSizes) || !slices.Equal(namesOfDists(opts.dists), namesOfDists(quickDistributions())) {
		t.Errorf("-quick: sizes %v, distributions %v", opts.sizes, namesOfDists(opts.dists))
	}
	opts, err = parseOptions([]string{"-quick", "-n", "1000003", "-dist", "few16", "-dist", "T4"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(opts.sizes, []int{1_000_003}) || !slices.Equal(namesOfDists(opts.dists), []string{"few16", "T4"}) {
		t.Errorf("-quick -n -dist: sizes %v, distributions %v", opts.sizes, namesOfDists(opts.dists))
	}
}

func TestParseOptionsSizes(t *testing.T) {
	opts, err := parseOptions([]string{"-n", "2^22", "-n", "1000", "-runs", "21", "-seed", "9", "-cub", "c.csv", "-o", "x"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(opts.sizes, []int{1 << 22, 1000}) || opts.runs != 21 || opts.seed != 9 || opts.cubCSV != "c.csv" || opts.dir != "x" {
		t.Errorf("options %+v", opts)
	}
}

// TestParseOptionsMethod checks that -method keeps the methods whose
// names match, in the table's order.
func TestParseOptionsMethod(t *testing.T) {
	opts, err := parseOptions([]string{"-method", "^obs_(scan|sort)$"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if got := methodNames(opts.methods); !slices.Equal(got, []string{obsScan, obsSort}) {
		t.Errorf("-method ^obs_(scan|sort)$: %v", got)
	}
}

// TestBadCommandLinesExitTwo checks that every bad command line is
// refused before anything runs.
func TestBadCommandLinesExitTwo(t *testing.T) {
	for _, args := range [][]string{
		{"-runs", "14"},
		{"-n", "0"},
		{"-n", "2^31"},
		{"-n", "many"},
		{"-seed", "9223372036854775808"},
		{"-cub", "a.csv", "-cub-bin", "baseline"},
		{"-charts-only", "-n", "1024"},
		{"-charts-only", "-cub-bin", "baseline"},
		{"-charts-only", "-quick"},
		{"-charts-only", "-dist", "T4"},
		{"-dist", "T3"},
		{"-dist", ""},
		{"-method", "("},
		{"-method", "^cub_"},
		{"extra"},
		{"-bogus"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 2 {
			t.Errorf("%v: exit status %d, want 2", args, code)
		}
		if !strings.Contains(stderr.String(), "obsbench") && !strings.Contains(stderr.String(), "flag") {
			t.Errorf("%v: stderr does not say why: %q", args, stderr.String())
		}
	}
}

func TestHelpExitsZero(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-h"}, &stdout, &stderr); code != 0 || !strings.Contains(stderr.String(), "-charts-only") {
		t.Errorf("exit status %d, usage %q", code, stderr.String())
	}
}

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
	want := []int{1 << 20, 1 << 21, 1 << 22, 1 << 23, 1 << 24, 1 << 25}
	if !slices.Equal(opts.sizes, want) || opts.runs != 15 || opts.seed != 1 || opts.dir != "docs/bench" || len(opts.dists) != 23 {
		t.Errorf("defaults %+v", opts)
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

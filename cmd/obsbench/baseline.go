package main

import (
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// rivalsOf returns the baseline methods that methods are divided by, and
// the copy, each once, in order: what the baseline measures for a run of
// those methods alone.
func rivalsOf(methods []method) []string {
	rivals := []string{memcpyMethod}
	for _, m := range methods {
		if !slices.Contains(rivals, m.rival()) {
			rivals = append(rivals, m.rival())
		}
	}
	return rivals
}

// runBaseline runs the CUB baseline program at path with the same key
// counts, distributions, runs and seed, passing its progress on to
// progress, and returns the rows of the CSV it prints. methods, when not
// empty, are the only baseline methods it measures.
func runBaseline(path string, sizes []int, dists, methods []string, runs int, seed uint64, progress io.Writer) ([]row, error) {
	var args []string
	for _, n := range sizes {
		args = append(args, "-n", strconv.Itoa(n))
	}
	for _, d := range dists {
		args = append(args, "-dist", d)
	}
	if len(methods) > 0 {
		quoted := make([]string, len(methods))
		for i, m := range methods {
			quoted[i] = regexp.QuoteMeta(m)
		}
		args = append(args, "-method", "^("+strings.Join(quoted, "|")+")$")
	}
	args = append(args, "-runs", strconv.Itoa(runs), "-seed", strconv.FormatUint(seed, 10))
	cmd := exec.Command(path, args...)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = progress
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("running the baseline %s: %w", path, err)
	}
	rows, err := readCSV(&stdout)
	if err != nil {
		return nil, fmt.Errorf("reading the baseline's output: %w", err)
	}
	return rows, nil
}

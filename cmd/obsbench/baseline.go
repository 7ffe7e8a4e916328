package main

import (
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"strconv"
)

// runBaseline runs the CUB baseline program at path with the same key
// counts, distributions, runs and seed, passing its progress on to
// progress, and returns the rows of the CSV it prints.
func runBaseline(path string, sizes []int, dists []string, runs int, seed uint64, progress io.Writer) ([]row, error) {
	var args []string
	for _, n := range sizes {
		args = append(args, "-n", strconv.Itoa(n))
	}
	for _, d := range dists {
		args = append(args, "-dist", d)
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

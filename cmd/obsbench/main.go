package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// File names inside the output folder.
const (
	csvName   = "bench.csv"
	tableName = "table.md"
)

// run runs obsbench with args and returns its exit status.
func run(args []string, stdout, stderr io.Writer) int {
	opts, err := parseOptions(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "obsbench: %v\nRun \"obsbench -h\" for usage.\n", err)
		return 2
	}
	if err := execute(opts, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "obsbench: %v\n", err)
		return 1
	}
	return 0
}

// execute measures (or, with -charts-only, reads the measurements) and
// writes the CSV, the charts and the table.
func execute(opts options, stdout, stderr io.Writer) error {
	if opts.chartsOnly {
		rows, err := readCSVFile(filepath.Join(opts.dir, csvName))
		if err != nil {
			return err
		}
		return report(opts.dir, rows, stdout, stderr)
	}
	rows, err := measureAll(opts, stderr)
	if err != nil {
		return err
	}
	sortRows(rows)
	path := filepath.Join(opts.dir, csvName)
	if err := writeCSVFile(path, rows); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "wrote %s\n", path)
	return report(opts.dir, rows, stdout, stderr)
}

// measureAll times our sorts on the device and gathers the baseline's
// rows.
func measureAll(opts options, stderr io.Writer) (rows []row, err error) {
	if err := os.MkdirAll(opts.dir, 0o755); err != nil {
		return nil, err
	}
	var cub []row
	if opts.cubCSV != "" {
		if cub, err = readCSVFile(opts.cubCSV); err != nil {
			return nil, err
		}
	}
	dev, err := opts.device()
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, dev.Close()) }()
	b, err := newBench(dev, opts.runs, opts.seed, stderr)
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, b.close()) }()
	b.dists = opts.dists
	if opts.methods != nil {
		b.methods = opts.methods
	}
	if opts.cubBin != "" {
		fmt.Fprintf(stderr, "running the baseline %s\n", opts.cubBin)
		var names []string
		for _, d := range opts.dists {
			names = append(names, d.label())
		}
		// A run of some of our methods times only their rivals and the copy.
		var rivals []string
		if opts.methods != nil {
			rivals = rivalsOf(opts.methods)
		}
		if cub, err = runBaseline(opts.cubBin, opts.sizes, names, rivals, opts.runs, opts.seed, stderr); err != nil {
			return nil, err
		}
	}
	if err := checkBaselineRows(cub); err != nil {
		return nil, err
	}
	fmt.Fprintf(stderr, "measuring on %s: %d timed runs after %d warm-ups, seed %d\n", dev.Name(), opts.runs, warmups, opts.seed)
	ours, err := b.measure(opts.sizes)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stderr, "done in %.1fs, every result checked\n", time.Since(b.began).Seconds())
	return append(ours, cub...), nil
}

// checkBaselineRows refuses baseline rows of our own methods, which the
// measurement would duplicate (a bench.csv given as -cub, say).
func checkBaselineRows(rows []row) error {
	ours := methodNames(ourMethods)
	for _, r := range rows {
		if slices.Contains(ours, r.method) {
			return fmt.Errorf("the baseline's rows include n=%d dist=%s method=%s, one of ours: give the CSV the baseline printed", r.n, r.dist, r.method)
		}
	}
	return nil
}

// report writes the charts and the table into dir and prints the ratio
// grid.
func report(dir string, rows []row, stdout, stderr io.Writer) error {
	text, err := table(rows)
	if err != nil {
		return err
	}
	charts, err := writeCharts(dir, rows)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, tableName)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		return err
	}
	for _, c := range charts {
		fmt.Fprintf(stderr, "wrote %s\n", c)
	}
	fmt.Fprintf(stderr, "wrote %s\n", path)
	_, err = io.WriteString(stdout, ratioGrid(rows))
	return err
}

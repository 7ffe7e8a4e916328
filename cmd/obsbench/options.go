package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
)

// defaultSizes are the key counts measured without -n: from one block's
// worth to 2^27, and one count that is not a power of two. quickSizes are
// those of -quick.
var (
	defaultSizes = []int{1 << 10, 1 << 16, 1_000_003, 1 << 20, 1 << 25, 1 << 27}
	quickSizes   = []int{1 << 10, 1 << 16, 1 << 20}
)

// options are obsbench's settings from its command line.
type options struct {
	sizes      []int
	runs       int
	seed       uint64
	cubCSV     string
	cubBin     string
	dir        string
	chartsOnly bool
	quick      bool
	// device opens the device to measure on.
	device func() (runtime.Device, error)
	// dists are the distributions measured.
	dists []distribution
	// methods are the methods measured; nil measures ourMethods.
	methods []method
}

// openGPU opens GPU 0.
func openGPU() (runtime.Device, error) {
	g, err := runtime.Open(0)
	if err != nil {
		return nil, err
	}
	return g, nil
}

// distList is the repeatable -dist flag.
type distList []distribution

// String implements flag.Value.
func (l *distList) String() string {
	var names []string
	for _, d := range *l {
		names = append(names, d.label())
	}
	return strings.Join(names, ",")
}

// Set implements flag.Value: a distribution's name.
func (l *distList) Set(v string) error {
	d, err := distributionNamed(v)
	if err != nil {
		return err
	}
	*l = append(*l, d)
	return nil
}

// sizeList is the repeatable -n flag.
type sizeList []int

// String implements flag.Value.
func (s *sizeList) String() string {
	var parts []string
	for _, n := range *s {
		parts = append(parts, strconv.Itoa(n))
	}
	return strings.Join(parts, ",")
}

// Set implements flag.Value: a count in decimal or as 2^k.
func (s *sizeList) Set(v string) error {
	n, err := parseSize(v)
	if err != nil {
		return err
	}
	*s = append(*s, n)
	return nil
}

// parseSize parses a key count, in decimal or as 2^k, between 1 and
// sorts.MaxBins (sorted and unique keys span [0, N)).
func parseSize(v string) (int, error) {
	var n int
	if exp, ok := strings.CutPrefix(v, "2^"); ok {
		k, err := strconv.Atoi(exp)
		if err != nil || k < 0 || k > 30 {
			return 0, fmt.Errorf("%q: want 2^k with 0 <= k <= 30", v)
		}
		n = 1 << k
	} else {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			return 0, fmt.Errorf("%q is not a key count", v)
		}
	}
	if n < 1 || n > sorts.MaxBins {
		return 0, fmt.Errorf("key count %d is outside [1, %d]", n, sorts.MaxBins)
	}
	return n, nil
}

// sizeNames writes sizes as sizeName does, separated by commas.
func sizeNames(sizes []int) string {
	var names []string
	for _, n := range sizes {
		names = append(names, sizeName(n))
	}
	return strings.Join(names, ", ")
}

// parseOptions parses the command line.
func parseOptions(args []string, stderr io.Writer) (options, error) {
	opts := options{device: openGPU}
	fs := flag.NewFlagSet("obsbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, `obsbench times the library's sorts and scan on GPU 0 beside CUB and Thrust.

Usage:
  obsbench [-quick] [-n N]... [-dist D]... [-method RE] [-runs R] [-seed S] [-cub FILE | -cub-bin PATH] [-o DIR]
  obsbench -charts-only [-o DIR]

Flags:
`)
		fs.PrintDefaults()
	}
	sizes := sizeList{}
	dists := distList{}
	fs.Var(&sizes, "n", "key count, decimal or 2^k; repeatable (default "+sizeNames(defaultSizes)+")")
	fs.Var(&dists, "dist", "key distribution; repeatable (default all: "+strings.Join(distOrder(), " ")+")")
	fs.BoolVar(&opts.quick, "quick", false, "without -n and -dist: key counts "+sizeNames(quickSizes)+" and the distributions T4, T8, ..., T24 and those after T24")
	only := fs.String("method", "", "measure only our methods whose names match this regular expression, and of the baseline's only their rivals and the copy (default all)")
	fs.IntVar(&opts.runs, "runs", minRuns, fmt.Sprintf("timed runs per measurement, at least %d", minRuns))
	fs.Uint64Var(&opts.seed, "seed", 1, "key generator seed, as the baseline's")
	fs.StringVar(&opts.cubCSV, "cub", "", "CSV the CUB baseline printed, to merge")
	fs.StringVar(&opts.cubBin, "cub-bin", "", "CUB baseline program to run with the same -n, -runs and -seed")
	fs.StringVar(&opts.dir, "o", filepath.Join("docs", "bench"), "output folder")
	fs.BoolVar(&opts.chartsOnly, "charts-only", false, "redraw the charts and table from DIR/"+csvName+", with no GPU")
	if err := fs.Parse(args); err != nil {
		return options{}, err
	}
	if fs.NArg() > 0 {
		return options{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if opts.chartsOnly {
		var set []string
		fs.Visit(func(f *flag.Flag) {
			if f.Name != "charts-only" && f.Name != "o" {
				set = append(set, "-"+f.Name)
			}
		})
		if len(set) > 0 {
			return options{}, fmt.Errorf("-charts-only redraws from DIR/%s and takes only -o, not %s", csvName, strings.Join(set, " "))
		}
		return opts, nil
	}
	if *only != "" {
		re, err := regexp.Compile(*only)
		if err != nil {
			return options{}, fmt.Errorf("-method %q: %v", *only, err)
		}
		for _, m := range ourMethods {
			if re.MatchString(m.label()) {
				opts.methods = append(opts.methods, m)
			}
		}
		if len(opts.methods) == 0 {
			return options{}, fmt.Errorf("-method %q matches none of our methods: %s", *only, strings.Join(methodNames(ourMethods), " "))
		}
	}
	if opts.runs < minRuns {
		return options{}, fmt.Errorf("-runs %d: at least %d runs are needed", opts.runs, minRuns)
	}
	if opts.seed > math.MaxInt64 {
		return options{}, fmt.Errorf("-seed %d: the baseline takes seeds up to 2^63-1", opts.seed)
	}
	if opts.cubCSV != "" && opts.cubBin != "" {
		return options{}, errors.New("give -cub or -cub-bin, not both")
	}
	opts.sizes, opts.dists = sizes, dists
	if len(opts.sizes) == 0 {
		opts.sizes = slices.Clone(defaultSizes)
		if opts.quick {
			opts.sizes = slices.Clone(quickSizes)
		}
	}
	if len(opts.dists) == 0 {
		opts.dists = distributions()
		if opts.quick {
			opts.dists = quickDistributions()
		}
	}
	return opts, nil
}

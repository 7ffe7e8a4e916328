package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/obsidian-go/obsidian/runtime"
)

// badInput is one row of the catalogue: what is tried and a substring of
// the error it must give.
type badInput struct {
	name string
	try  func() error
	want string
}

// rowDeadline bounds each row: none may hang.
const rowDeadline = 30 * time.Second

// tryRow runs row.try in a goroutine, reporting a panic or a hang as a
// failure, and checks the error it returns.
func tryRow(t *testing.T, row badInput) {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- fmt.Errorf("panic: %v", p)
			}
		}()
		done <- row.try()
	}()
	select {
	case err := <-done:
		switch {
		case err == nil:
			t.Errorf("%s: no error, want one saying %q", row.name, row.want)
		case strings.HasPrefix(err.Error(), "panic: "):
			t.Errorf("%s: %v", row.name, err)
		case !strings.Contains(err.Error(), row.want):
			t.Errorf("%s: %v, want an error saying %q", row.name, err, row.want)
		}
	case <-time.After(rowDeadline):
		t.Errorf("%s: no answer in %v", row.name, rowDeadline)
	}
}

// TestBadInputCatalogue runs every bad input obsbench knows of: command
// lines, CSV files and baselines. No row may panic or hang.
func TestBadInputCatalogue(t *testing.T) {
	dir := t.TempDir()
	file := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	args := func(a ...string) func() error {
		return func() error { _, err := parseOptions(a, &bytes.Buffer{}); return err }
	}
	csv := func(text string) func() error {
		return func() error { _, err := readCSV(strings.NewReader(text)); return err }
	}
	chartsOnly := func(text string) func() error {
		return func() error {
			out := filepath.Join(dir, fmt.Sprintf("charts%d", len(text)))
			if err := os.MkdirAll(out, 0o755); err != nil {
				return err
			}
			file(filepath.Join(filepath.Base(out), csvName), text)
			return execute(options{chartsOnly: true, dir: out}, &bytes.Buffer{}, &bytes.Buffer{})
		}
	}
	measure := func(edit func(*options)) func() error {
		return func() error {
			opts := cpuOptions(filepath.Join(dir, "measure"))
			opts.sizes = []int{16}
			edit(&opts)
			return execute(opts, &bytes.Buffer{}, &bytes.Buffer{})
		}
	}
	failing, _ := fakeBaseline(t, "")
	garbage, _ := fakeBaseline(t, "not a CSV\n")
	const row1 = "64,T4,memcpy,1,1,1,15\n"
	rows := []badInput{
		// Command lines.
		{"-runs 14", args("-runs", "14"), "at least 15 runs"},
		{"-n 0", args("-n", "0"), "key count 0 is outside [1, 1073741824]"},
		{"-n 2^31", args("-n", "2^31"), `"2^31": want 2^k with 0 <= k <= 30`},
		{"-n 2^x", args("-n", "2^x"), `"2^x": want 2^k`},
		{"-n many", args("-n", "many"), `"many" is not a key count`},
		{"-n beyond int64", args("-n", "99999999999999999999"), "is not a key count"},
		{"-n 2^30+1", args("-n", "1073741825"), "outside [1, 1073741824]"},
		{"-seed 2^63", args("-seed", "9223372036854775808"), "takes seeds up to 2^63-1"},
		{"-seed -1", args("-seed", "-1"), "invalid value"},
		{"-cub and -cub-bin", args("-cub", "a.csv", "-cub-bin", "b"), "give -cub or -cub-bin, not both"},
		{"-charts-only -n", args("-charts-only", "-n", "64"), "takes only -o, not -n"},
		{"-charts-only -quick -dist", args("-charts-only", "-quick", "-dist", "T4"), "takes only -o, not -dist -quick"},
		{"-dist T3", args("-dist", "T3"), `unknown distribution "T3"`},
		{"-dist empty", args("-dist", ""), `unknown distribution ""`},
		{"an argument", args("extra"), `unexpected argument "extra"`},
		{"an unknown flag", args("-bogus"), "flag provided but not defined: -bogus"},

		// CSV files.
		{"empty CSV", csv(""), "the CSV is empty"},
		{"another header", csv("n,dist,method,median,min,max,runs\n"), "CSV header is"},
		{"six columns", csv(csvHeader + "\n1,T4,memcpy,1,1,1\n"), "wrong number of fields"},
		{"n zero", csv(csvHeader + "\n0,T4,memcpy,1,1,1,15\n"), `n "0" is not a positive integer`},
		{"n negative", csv(csvHeader + "\n-4,T4,memcpy,1,1,1,15\n"), `n "-4" is not a positive integer`},
		{"a time in words", csv(csvHeader + "\n4,T4,memcpy,fast,1,1,15\n"), `time "fast" is not a finite non-negative number`},
		{"an infinite time", csv(csvHeader + "\n4,T4,memcpy,1,1,inf,15\n"), `time "inf"`},
		{"a NaN time", csv(csvHeader + "\n4,T4,memcpy,NaN,1,1,15\n"), `time "NaN"`},
		{"a negative time", csv(csvHeader + "\n4,T4,memcpy,1,-1,1,15\n"), `time "-1"`},
		{"min above the median", csv(csvHeader + "\n4,T4,memcpy,1,2,3,15\n"), "times out of order: min 2, median 1, max 3"},
		{"median above max", csv(csvHeader + "\n4,T4,memcpy,3,1,2,15\n"), "times out of order"},
		{"runs zero", csv(csvHeader + "\n4,T4,memcpy,1,1,1,0\n"), `runs "0" is not a positive integer`},
		{"no method", csv(csvHeader + "\n4,T4,,1,1,1,15\n"), "empty dist or method"},
		{"no distribution", csv(csvHeader + "\n4,,memcpy,1,1,1,15\n"), "empty dist or method"},
		{"a row twice", csv(csvHeader + "\n" + row1 + "64,T5,memcpy,1,1,1,15\n" + row1), "CSV line 4: a second row for n=64 dist=T4 method=memcpy (the first is on line 2)"},
		{"a bare quote", csv(csvHeader + "\n4,\"T4,memcpy,1,1,1,15\n"), "extraneous or missing \" in quoted-field"},

		// -charts-only.
		{"-charts-only without a CSV", func() error {
			return execute(options{chartsOnly: true, dir: filepath.Join(dir, "none")}, &bytes.Buffer{}, &bytes.Buffer{})
		}, "no such file or directory"},
		{"-charts-only of a header alone", chartsOnly(csvHeader + "\n"), "no measurements to tabulate"},
		{"-charts-only of a bad row", chartsOnly(csvHeader + "\n4,T4,memcpy,1,1,1,0\n"), `bench.csv: CSV line 2: runs "0"`},

		// Measuring.
		{"-cub missing", measure(func(o *options) { o.cubCSV = filepath.Join(dir, "missing.csv") }), "no such file or directory"},
		{"-cub of a bad CSV", measure(func(o *options) { o.cubCSV = file("bad.csv", "x\n") }), "bad.csv: record on line 1: wrong number of fields"},
		{"-cub with our rows", measure(func(o *options) {
			o.cubCSV = file("ours.csv", csvHeader+"\n64,T4,obs_counting,1,1,1,15\n")
		}), "the baseline's rows include n=64 dist=T4 method=obs_counting, one of ours"},
		{"-cub-bin failing", measure(func(o *options) { o.cubBin = failing }), "running the baseline"},
		{"-cub-bin missing", measure(func(o *options) { o.cubBin = filepath.Join(dir, "no-baseline") }), "running the baseline"},
		{"-cub-bin printing garbage", measure(func(o *options) { o.cubBin = garbage }), "reading the baseline's output"},
		{"no device", measure(func(o *options) {
			o.device = func() (runtime.Device, error) { return nil, errors.New("no GPU here") }
		}), "no GPU here"},
		{"an output folder that is a file", measure(func(o *options) { o.dir = file("a-file", "") }), "not a directory"},
	}
	for _, row := range rows {
		tryRow(t, row)
	}
}

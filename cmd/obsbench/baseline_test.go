package main

import (
	"bytes"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"
)

// fakeBaseline writes a shell script that records its arguments in
// args.txt beside it and prints csv (or fails with status 1 when csv is
// empty).
func fakeBaseline(t *testing.T, csv string) (bin, argsFile string) {
	t.Helper()
	if goruntime.GOOS == "windows" {
		t.Skip("the fake baseline is a shell script")
	}
	dir := t.TempDir()
	bin = filepath.Join(dir, "baseline")
	argsFile = filepath.Join(dir, "args.txt")
	body := "#!/bin/sh\nprintf '%s ' \"$@\" > " + argsFile + "\necho progress >&2\n"
	if csv == "" {
		body += "exit 1\n"
	} else {
		body += "cat <<'EOF'\n" + csv + "EOF\n"
	}
	if err := os.WriteFile(bin, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin, argsFile
}

// TestRunBaselinePassesTheSettings checks the arguments the baseline gets
// and that its CSV and progress come through.
func TestRunBaselinePassesTheSettings(t *testing.T) {
	bin, argsFile := fakeBaseline(t, csvHeader+"\n64,T4,memcpy,0.010000,0.009000,0.012000,17\n")
	var progress bytes.Buffer
	rows, err := runBaseline(bin, []int{64, 1 << 20}, []string{"T4", "few16"}, 17, 5, &progress)
	if err != nil {
		t.Fatal(err)
	}
	args, err := os.ReadFile(argsFile)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(args)); got != "-n 64 -n 1048576 -dist T4 -dist few16 -runs 17 -seed 5" {
		t.Errorf("baseline arguments %q", got)
	}
	want := row{n: 64, dist: "T4", method: memcpyMethod, medianMS: 0.01, minMS: 0.009, maxMS: 0.012, runs: 17}
	if len(rows) != 1 || rows[0] != want {
		t.Errorf("rows %v, want [%v]", rows, want)
	}
	if progress.String() != "progress\n" {
		t.Errorf("progress %q", progress.String())
	}
}

func TestRunBaselineFailureIsAnError(t *testing.T) {
	bin, _ := fakeBaseline(t, "")
	if _, err := runBaseline(bin, []int{64}, []string{"T4"}, 15, 1, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "running the baseline") {
		t.Errorf("error %v, want the baseline's failure", err)
	}
	if _, err := runBaseline(filepath.Join(t.TempDir(), "missing"), []int{64}, []string{"T4"}, 15, 1, &bytes.Buffer{}); err == nil {
		t.Error("running a missing baseline succeeded")
	}
}

// TestMeasureMergesTheBaselinesRows runs a whole CPU measurement with a
// baseline program and finds its rows in bench.csv.
func TestMeasureMergesTheBaselinesRows(t *testing.T) {
	bin, _ := fakeBaseline(t, csvHeader+"\n64,T7,cub_radix_bits,0.010000,0.009000,0.012000,15\n")
	opts := cpuOptions(t.TempDir())
	opts.sizes = []int{64}
	opts.cubBin = bin
	var stdout, stderr bytes.Buffer
	if err := execute(opts, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	rows, err := readCSVFile(filepath.Join(opts.dir, csvName))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := lookup(rows, 64, "T7", cubRadixBits); !ok || len(rows) != cpuRows64+1 {
		t.Errorf("rows %v lack the baseline's", rows)
	}
	if !strings.Contains(stdout.String(), "obs_counting / cub_radix_bits") || !strings.Contains(stderr.String(), "progress") {
		t.Errorf("stdout %q, stderr %q", stdout.String(), stderr.String())
	}
}

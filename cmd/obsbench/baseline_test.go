package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"slices"
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
	rows, err := runBaseline(bin, []int{64, 1 << 20}, []string{"T4", "few16"}, nil, 17, 5, &progress)
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
	if _, err := runBaseline(bin, []int{64}, []string{"T4"}, []string{memcpyMethod, cubRadixBits}, 15, 1, &progress); err != nil {
		t.Fatal(err)
	}
	if args, err = os.ReadFile(argsFile); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(args)); got != "-n 64 -dist T4 -method ^(memcpy|cub_radix_bits)$ -runs 15 -seed 1" {
		t.Errorf("baseline arguments with methods %q", got)
	}
}

func TestRunBaselineFailureIsAnError(t *testing.T) {
	bin, _ := fakeBaseline(t, "")
	if _, err := runBaseline(bin, []int{64}, []string{"T4"}, nil, 15, 1, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "running the baseline") {
		t.Errorf("error %v, want the baseline's failure", err)
	}
	if _, err := runBaseline(filepath.Join(t.TempDir(), "missing"), []int{64}, []string{"T4"}, nil, 15, 1, &bytes.Buffer{}); err == nil {
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

// buildFakeBaseline builds bench/cub/baseline.cu against the host-memory
// stand-ins for CUDA, CUB and Thrust of testdata/fakecuda.
func buildFakeBaseline(t *testing.T) string {
	fake, err := filepath.Abs(filepath.Join("testdata", "fakecuda"))
	if err != nil {
		t.Fatal(err)
	}
	return buildCXX(t, "baseline.cu", "-x", "c++", "-include", "cuda_runtime.h", "-I"+fake)
}

// TestBaselineOnFakeCUDA runs the baseline program, built against
// host-memory CUDA, CUB and Thrust: its CSV has every method for every
// distribution of its key type, obsbench merges it with a rival for each
// of our methods, each kind of wrong result exits with status 1 naming
// it, and bad command lines exit with status 2.
func TestBaselineOnFakeCUDA(t *testing.T) {
	bin := buildFakeBaseline(t)
	t.Run("rows", func(t *testing.T) {
		rows, err := runBaseline(bin, []int{300, 64}, distOrder(), nil, 15, 3, &bytes.Buffer{})
		if err != nil {
			t.Fatal(err)
		}
		u32 := []string{cubRadixBits, cubRadixFull, cubPairsBits, cubPairsFull, cubRadixDesc, cubPairsDesc, thrustSort, cubSortUnique, cubScan,
			memcpyMethod}
		other := []string{cubRadixFull, cubPairsFull, cubRadixDesc, cubPairsDesc, thrustSort, cubSortUnique, memcpyMethod}
		for _, n := range []int{300, 64} {
			for _, d := range distributions() {
				want := u32
				if d.keyType() != uint32Keys.name {
					want = other
				}
				var got []string
				for _, r := range rows {
					if r.n == n && r.dist == d.label() {
						got = append(got, r.method)
						if r.runs != 15 || r.minMS > r.medianMS || r.medianMS > r.maxMS {
							t.Errorf("implausible row %+v", r)
						}
					}
				}
				slices.Sort(got)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Errorf("n=%d dist=%s: methods %v, want %v", n, d.label(), got, want)
				}
			}
		}
		// Every method's rival is one the baseline measures.
		for _, m := range ourMethods {
			if !slices.ContainsFunc(rows, func(r row) bool { return r.method == m.rival() }) {
				t.Errorf("%s's rival %s: no row of the baseline", m.label(), m.rival())
			}
		}
	})
	t.Run("methods", func(t *testing.T) {
		for _, want := range [][]string{{memcpyMethod, cubPairsFull}, {cubScan}, {cubSortUnique, thrustSort}} {
			rows, err := runBaseline(bin, []int{300}, []string{"T4", "F32"}, want, 15, 3, &bytes.Buffer{})
			if err != nil {
				t.Fatal(err)
			}
			for _, dist := range []string{"T4", "F32"} {
				var got []string
				for _, r := range rows {
					if r.dist == dist {
						got = append(got, r.method)
					}
				}
				wantHere := slices.DeleteFunc(slices.Clone(want), func(m string) bool { return dist == "F32" && m == cubScan })
				slices.Sort(got)
				slices.Sort(wantHere)
				if !slices.Equal(got, wantHere) {
					t.Errorf("-method of %v, dist %s: methods %v, want %v", want, dist, got, wantHere)
				}
			}
		}
	})
	t.Run("merged", func(t *testing.T) {
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
		for _, m := range opts.methods {
			dist := "T4"
			if m.label() == obsHPDistinct {
				dist = "unique" // distinct keys only
			}
			if _, ok := ratioOf(rows, 64, dist, comparison{m.label(), m.rival()}); !ok {
				t.Errorf("no ratio of %s to %s for %s", m.label(), m.rival(), dist)
			}
		}
		// A run of some of our methods has the baseline time their rivals
		// and the copy alone.
		rivals := rivalsOf(opts.methods)
		for _, r := range rows {
			if !slices.ContainsFunc(ourMethods, func(m method) bool { return m.label() == r.method }) && !slices.Contains(rivals, r.method) {
				t.Errorf("a row of %s, not a rival of %v", r.method, methodNames(opts.methods))
			}
		}
	})
	t.Run("wrong results", func(t *testing.T) {
		for mode, want := range map[string]string{
			"keys":   "dist=F32 method=cub_radix_full: element 0 is",
			"values": "method=cub_pairs_full: value",
			"unique": "method=cub_sort_unique: 17 distinct keys, want 16",
			"scan":   "method=cub_scan: element 299 is",
			"copy":   "method=memcpy: element 299 is",
		} {
			cmd := exec.Command(bin, "-n", "300", "-dist", "T4", "-dist", "F32")
			cmd.Env = append(os.Environ(), "FAKECUDA_BREAK="+mode)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			if code := exitCode(err); code != 1 || !strings.Contains(stderr.String(), want) {
				t.Errorf("%s: exit status %d, stderr %q, want 1 and %q", mode, code, stderr.String(), want)
			}
		}
	})
	t.Run("bad command lines", func(t *testing.T) {
		for _, args := range [][]string{{"-dist", "T3"}, {"-n", "0"}, {"-n", "2147483648"}, {"-runs", "14"}, {"-seed", "-1"}, {"-bogus", "1"}, {"-n"},
			{"-method", "("}, {"-method", "^cub_nothing$"}} {
			var stderr bytes.Buffer
			cmd := exec.Command(bin, args...)
			cmd.Stderr = &stderr
			if code := exitCode(cmd.Run()); code != 2 || !strings.Contains(stderr.String(), "error: ") {
				t.Errorf("%v: exit status %d, stderr %q", args, code, stderr.String())
			}
		}
	})
}

// exitCode returns a command's exit status from Run's error.
func exitCode(err error) int {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

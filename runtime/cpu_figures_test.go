//go:build linux

package runtime_test

import (
	"fmt"
	"os"
	"os/exec"
	goruntime "runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
)

// cpuWorkloadVar names the workload a child process of
// TestCPUDeviceFigures runs.
const cpuWorkloadVar = "OBSIDIAN_CPU_WORKLOAD"

// cpuWorkloads are the sizes the CPU device is measured at: a vector add of
// 10^7 float32 elements, one thread each, and a counting sort of 10^6
// random keys over 2^24 values. Each returns the time of the launches alone
// (data made and kernels loaded beforehand), having checked the result.
var cpuWorkloads = map[string]func(t *testing.T) time.Duration{
	"vadd": func(t *testing.T) time.Duration {
		const n = 10_000_000
		r := testRand(t)
		d := runtime.CPU()
		a, b := randomFloats(r, n), randomFloats(r, n)
		f := must(d.Load(vectorAdd()))(t)
		x, y := must(runtime.FromSlice(d, a))(t), must(runtime.FromSlice(d, b))(t)
		out := must(runtime.Alloc[float32](d, n))(t)
		start := time.Now()
		if err := d.Launch(f, runtime.LaunchConfig{}, x, y, out); err != nil {
			t.Fatal(err)
		}
		took := time.Since(start)
		got := must(out.ToSlice())(t)
		for i := range got {
			if got[i] != a[i]+b[i] {
				t.Fatalf("out[%d] = %v, want %v + %v", i, got[i], a[i], b[i])
			}
		}
		return took
	},
	"sort": func(t *testing.T) time.Duration {
		const n, values = 1_000_000, 1 << 24
		r := testRand(t)
		d := runtime.CPU()
		s := must(sorts.New(d))(t)
		keys := make([]uint32, n)
		for i := range keys {
			keys[i] = r.Uint32N(values)
		}
		in := must(runtime.FromSlice(d, keys))(t)
		out := must(runtime.Alloc[uint32](d, n))(t)
		start := time.Now()
		if err := s.CountingSort(out, in, 0, values); err != nil {
			t.Fatal(err)
		}
		took := time.Since(start)
		slices.Sort(keys)
		if got := must(out.ToSlice())(t); !slices.Equal(got, keys) {
			t.Fatal("the counting sort's output is not the sorted keys")
		}
		return took
	},
}

// TestCPUDeviceWorkload runs the workload $OBSIDIAN_CPU_WORKLOAD names, in
// the child process TestCPUDeviceFigures starts, and prints its time.
func TestCPUDeviceWorkload(t *testing.T) {
	name := os.Getenv(cpuWorkloadVar)
	if name == "" {
		t.Skip("runs in the child processes of TestCPUDeviceFigures")
	}
	run, ok := cpuWorkloads[name]
	if !ok {
		t.Fatalf("%s=%q is no workload", cpuWorkloadVar, name)
	}
	fmt.Printf("workload time %d ns\n", run(t).Nanoseconds())
}

// TestCPUDeviceFigures measures the CPU device at realistic sizes (-long
// only): each workload runs in a process of its own, whose peak resident
// memory and CPU time the kernel reports.
func TestCPUDeviceFigures(t *testing.T) {
	if !*proptest.Long {
		t.Skip("measures the CPU device for seconds; run with -long")
	}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for name := range cpuWorkloads {
			if !yield(name) {
				return
			}
		}
	}) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCPUDeviceWorkload$", "-test.v")
		cmd.Env = append(os.Environ(), cpuWorkloadVar+"="+name)
		output, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("workload %s: %v\n%s", name, err, output)
		}
		var ns int64
		for line := range strings.Lines(string(output)) {
			if _, err := fmt.Sscanf(line, "workload time %d ns", &ns); err == nil {
				break
			}
		}
		if ns == 0 {
			t.Fatalf("workload %s printed no time:\n%s", name, output)
		}
		usage := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		cpu := time.Duration(usage.Utime.Nano() + usage.Stime.Nano())
		rss := usage.Maxrss >> 10 // Linux counts kilobytes
		t.Logf("%s: %v (GOMAXPROCS %d); process: %v of CPU, peak RSS %d MB", name, time.Duration(ns),
			goruntime.GOMAXPROCS(0), cpu.Round(time.Millisecond), rss)
		if limit := cpuWorkloadRSS[name]; rss > limit {
			t.Errorf("%s: peak RSS %d MB, more than %d MB", name, rss, limit)
		}
	}
}

// cpuWorkloadRSS bounds the peak resident memory of the workloads' processes,
// in megabytes: the sort's buffers take 137 MB.
var cpuWorkloadRSS = map[string]int64{"vadd": 400, "sort": 300}

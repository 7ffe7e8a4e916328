package scan_test

import (
	"errors"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/scan"
)

var scanVariants = flag.Bool("scanvariants", false,
	"time ExclusiveSum of 2^25 words on the GPU with each block shape of TestGPUScanVariants")

// variantShapes are the block shapes TestGPUScanVariants times, each
// named by its String: threads x elements per thread, "/full" when full
// tiles skip the per-element bounds checks, "/vector" when full tiles are
// read and written by groups of 4 consecutive elements, "/byblock" when
// block i scans tile i (TilesByBlock).
var variantShapes = []arrays.DeviceScanShape{
	{Threads: 128, PerThread: 16},
	{Threads: 128, PerThread: 24},
	{Threads: 256, PerThread: 8},
	{Threads: 256, PerThread: 12},
	{Threads: 256, PerThread: 16},
	{Threads: 256, PerThread: 24},
	{Threads: 512, PerThread: 8},
	{Threads: 512, PerThread: 12},
	{Threads: 128, PerThread: 16, FullTiles: true},
	{Threads: 128, PerThread: 24, FullTiles: true},
	{Threads: 256, PerThread: 12, FullTiles: true},
	{Threads: 256, PerThread: 16, FullTiles: true},
	{Threads: 256, PerThread: 16, WarpRows: true},
	{Threads: 256, PerThread: 16, FullTiles: true, WarpRows: true},
	{Threads: 256, PerThread: 16, FullTiles: true, WarpRows: true, Backoff: 32},
	{Threads: 256, PerThread: 16, FullTiles: true, Backoff: 32},
	{Threads: 256, PerThread: 16, FullTiles: true, Backoff: 128},
	{Threads: 128, PerThread: 16, FullTiles: true, WarpRows: true},
	{Threads: 256, PerThread: 12, FullTiles: true, WarpRows: true},
	{Threads: 512, PerThread: 16, FullTiles: true, WarpRows: true},
	{Threads: 256, PerThread: 24, FullTiles: true, WarpRows: true},
	{Threads: 256, PerThread: 16, Vector: true},
	{Threads: 256, PerThread: 16, FullTiles: true, Vector: true},
	{Threads: 256, PerThread: 12, FullTiles: true, Vector: true},
	{Threads: 128, PerThread: 16, FullTiles: true, Vector: true},
	{Threads: 192, PerThread: 20, FullTiles: true, Vector: true},
	{Threads: 256, PerThread: 20, FullTiles: true, Vector: true},
	{Threads: 384, PerThread: 12, FullTiles: true, Vector: true},
	{Threads: 512, PerThread: 8, FullTiles: true, Vector: true},
	{Threads: 128, PerThread: 32, FullTiles: true, Vector: true},
	{Threads: 128, PerThread: 24, FullTiles: true, Vector: true},
	{Threads: 128, PerThread: 28, FullTiles: true, Vector: true},
	{Threads: 64, PerThread: 32, FullTiles: true, Vector: true},
	{Threads: 96, PerThread: 32, FullTiles: true, Vector: true},
	{Threads: 160, PerThread: 32, FullTiles: true, Vector: true},
	{Threads: 192, PerThread: 32, FullTiles: true, Vector: true},
	{Threads: 256, PerThread: 32, FullTiles: true, Vector: true},
	{Threads: 128, PerThread: 32, FullTiles: true},
	{Threads: 128, PerThread: 32},
	{Threads: 128, PerThread: 32, FullTiles: true, Vector: true, Backoff: 64},
	{Threads: 128, PerThread: 32, FullTiles: true, Vector: true, TilesByBlock: true},
	{Threads: 160, PerThread: 32, FullTiles: true, Vector: true, TilesByBlock: true},
	{Threads: 256, PerThread: 32, FullTiles: true, Vector: true, TilesByBlock: true},
	{Threads: 128, PerThread: 24, FullTiles: true, Vector: true, TilesByBlock: true},
	{Threads: 128, PerThread: 32, FullTiles: true, TilesByBlock: true},
	{Threads: 192, PerThread: 32, FullTiles: true, Vector: true, TilesByBlock: true},
	{Threads: 384, PerThread: 32, FullTiles: true, Vector: true, TilesByBlock: true},
	{Threads: 512, PerThread: 32, FullTiles: true, Vector: true, TilesByBlock: true},
	{Threads: 256, PerThread: 32, FullTiles: true, TilesByBlock: true},
	{Threads: 256, PerThread: 16, FullTiles: true, Vector: true, TilesByBlock: true},
}

// The timing of TestGPUScanVariants, as cmd/obsbench times: untimed
// warm-ups, then timed runs, each between two events on the default
// stream, of which the median is logged.
const (
	variantWarmups = 3
	variantRuns    = 31
	// variantRounds is how many times each variant is timed, the
	// variants in turn; the median of the rounds' medians is logged.
	variantRounds = 3
)

// TestGPUScanVariants times, on the GPU and only with -scanvariants, the
// exclusive uint32 sum of 2^25 fresh random words with blocks of each of
// variantShapes, and the copy of the same words by a kernel of
// out[i] = in[i] (the runtime has no device-to-device copy), the floor. Each
// variant's result and the copy are first checked element by element
// against Go. It logs one line per variant, "variant <shape> median_ms
// <ms>" (the median of variantRounds rounds, each timing every variant in
// turn), then "memcpy median_ms <ms>"; it asserts nothing of the times.
func TestGPUScanVariants(t *testing.T) {
	if !*scanVariants {
		t.Skip("times the scan's block shapes only with -scanvariants")
	}
	g := gputest.Open(t)
	const n = 1 << 25
	seed := proptest.Seed(t)
	xs := randomWords(n, seed, operators[0])
	want := sequential(operators[0], scan.Exclusive, xs)
	in, err := runtime.FromSlice(g, xs)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Free()
	out, err := runtime.Alloc[uint32](g, n)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Free()
	timer := newEventTimer(t, g)

	// check runs run once into an out poisoned with 0xFFFFFFFF and
	// compares out with wantOut.
	check := func(what string, run func() error, wantOut []uint32) {
		t.Helper()
		if err := out.Fill(0xFFFFFFFF); err != nil {
			t.Fatal(err)
		}
		if err := run(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		got, err := out.ToSlice()
		if err != nil {
			t.Fatal(err)
		}
		if d := firstDifference(got, wantOut); d != "" {
			t.Fatalf("%s: %s", what, d)
		}
	}
	runs := make([]func() error, len(variantShapes))
	for i, shape := range variantShapes {
		s, err := scan.NewShaped(g, dsl.U32.Add, 0, scan.Exclusive, shape)
		if err != nil {
			t.Fatalf("variant %v: %v", shape, err)
		}
		t.Cleanup(func() { s.Close() })
		runs[i] = func() error { return s.Run(in, out) }
		check("variant "+shape.String(), runs[i], want)
	}
	timer.logRounds("", variantShapes, runs)

	copyFn, err := g.Load(copyKernel(t))
	if err != nil {
		t.Fatal(err)
	}
	runCopy := func() error { return g.Launch(copyFn, runtime.LaunchConfig{}, in, out) }
	check("copy", runCopy, xs)
	t.Logf("memcpy median_ms %.4f", timer.median(runCopy))
	t.Log("memcpy is a kernel of out[i] = in[i], one thread per element (the runtime has no device-to-device copy)")
}

// logRounds times runs[i], the scan of shapes[i], in variantRounds rounds
// that time every run in turn, so that a drift of the machine's speed
// falls on all of them alike, and logs for each "<prefix>variant <shape>
// median_ms <ms> (rounds: ...)", the median of the rounds' medians.
func (et *eventTimer) logRounds(prefix string, shapes []arrays.DeviceScanShape, runs []func() error) {
	et.t.Helper()
	medians := make([][]float64, len(runs))
	for range variantRounds {
		for i, run := range runs {
			medians[i] = append(medians[i], et.median(run))
		}
	}
	for i, shape := range shapes {
		slices.Sort(medians[i])
		et.t.Logf("%svariant %v median_ms %.4f (rounds: %s)", prefix, shape, medians[i][len(medians[i])/2],
			msList(medians[i]))
	}
}

// msList writes times in milliseconds, separated by spaces.
func msList(ms []float64) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = strconv.FormatFloat(m, 'f', 4, 64)
	}
	return strings.Join(parts, " ")
}

// copyKernel returns the kernel of out[i] = in[i].
func copyKernel(t *testing.T) *ir.Kernel {
	k := dsl.NewKernel("copyWords", 256)
	in := dsl.Input[uint32](k, "in")
	out := dsl.Output[uint32](k, "out")
	k.Body(func(g *dsl.Grid) {
		arrays.WriteTo(g, out, arrays.ToPush[*dsl.Grid](arrays.FromArray(in)))
	})
	built, err := k.Build()
	if err != nil {
		t.Fatal(err)
	}
	return built
}

// eventTimer times work on the default stream between two events.
type eventTimer struct {
	t           *testing.T
	start, stop runtime.Event
}

func newEventTimer(t *testing.T, dev runtime.Device) *eventTimer {
	t.Helper()
	et := &eventTimer{t: t}
	for _, e := range []*runtime.Event{&et.start, &et.stop} {
		ev, err := dev.NewEvent()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ev.Close() })
		*e = ev
	}
	return et
}

// median runs run variantWarmups untimed times, then variantRuns timed
// times, and returns the median of the timed runs in milliseconds.
func (et *eventTimer) median(run func() error) float64 {
	et.t.Helper()
	var ms []float64
	for i := range variantWarmups + variantRuns {
		if err := et.start.Record(nil); err != nil {
			et.t.Fatal(err)
		}
		if err := run(); err != nil {
			et.t.Fatal(err)
		}
		if err := et.stop.Record(nil); err != nil {
			et.t.Fatal(err)
		}
		if err := et.stop.Synchronize(); err != nil {
			et.t.Fatal(err)
		}
		elapsed, err := et.stop.Since(et.start)
		if err != nil {
			et.t.Fatal(err)
		}
		if i >= variantWarmups {
			ms = append(ms, elapsed.Seconds()*1e3)
		}
	}
	slices.Sort(ms)
	return ms[len(ms)/2]
}

// sizeShapes are the shapes TestGPUScanShapesBySize times, and sizeLengths
// the input lengths: around the length from which
// arrays.DeviceScanShapeFor takes its larger tiles.
var (
	sizeShapes = []arrays.DeviceScanShape{
		{Threads: 128, PerThread: 32, FullTiles: true, Vector: true},
		{Threads: 128, PerThread: 32, FullTiles: true, Vector: true, TilesByBlock: true},
		{Threads: 256, PerThread: 32, FullTiles: true, Vector: true, TilesByBlock: true},
		{Threads: 512, PerThread: 32, FullTiles: true, Vector: true, TilesByBlock: true},
	}
	sizeLengths = []int{1 << 16, 1 << 18, 1 << 20, 1 << 21, 1 << 22, 1 << 23, 1 << 24, 1 << 25, 1 << 27}
)

// TestGPUScanShapesBySize times, on the GPU and only with -scanvariants,
// the exclusive uint32 sum of fresh random words with each of sizeShapes
// at each of sizeLengths, after checking each result once element by
// element against Go. It logs "size <n> variant <shape> median_ms <ms>"
// (the median of variantRounds rounds, the shapes in turn); it asserts
// nothing of the times.
func TestGPUScanShapesBySize(t *testing.T) {
	if !*scanVariants {
		t.Skip("times the scan's block shapes only with -scanvariants")
	}
	g := gputest.Open(t)
	seed := proptest.Seed(t)
	timer := newEventTimer(t, g)
	scans := make([]*scan.Scan[uint32], len(sizeShapes))
	for i, shape := range sizeShapes {
		s, err := scan.NewShaped(g, dsl.U32.Add, 0, scan.Exclusive, shape)
		if err != nil {
			t.Fatalf("variant %v: %v", shape, err)
		}
		t.Cleanup(func() { s.Close() })
		scans[i] = s
	}
	for _, n := range sizeLengths {
		xs := randomWords(n, seed+uint64(n), operators[0])
		want := sequential(operators[0], scan.Exclusive, xs)
		in, err := runtime.FromSlice(g, xs)
		if err != nil {
			t.Fatal(err)
		}
		out, err := runtime.Alloc[uint32](g, n)
		if err != nil {
			t.Fatal(err)
		}
		runs := make([]func() error, len(scans))
		for i, s := range scans {
			runs[i] = func() error { return s.Run(in, out) }
			if err := errors.Join(out.Fill(0xFFFFFFFF), runs[i]()); err != nil {
				t.Fatal(err)
			}
			got, err := out.ToSlice()
			if err != nil {
				t.Fatal(err)
			}
			if d := firstDifference(got, want); d != "" {
				t.Fatalf("size %d variant %v: %s", n, sizeShapes[i], d)
			}
		}
		timer.logRounds(fmt.Sprintf("size %d ", n), sizeShapes, runs)
		if err := errors.Join(in.Free(), out.Free()); err != nil {
			t.Fatal(err)
		}
	}
}

package catalog_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obsidian-go/obsidian/internal/catalog"
	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/runtime"
)

// setup is one run of a catalogued kernel: its arguments by parameter name
// (slices for arrays, the initial contents of outputs included; uint32 for
// scalars) and the outputs plain Go expects.
type setup struct {
	args map[string]any
	want map[string][]uint32
}

// scanRef returns the chunk-wise inclusive scans of in and the chunk
// totals, chunks padded with zeros.
func scanRef(in []uint32, chunk int) (out, totals []uint32) {
	out = make([]uint32, len(in))
	for c := 0; c*chunk < len(in); c++ {
		var sum uint32
		for i := c * chunk; i < (c+1)*chunk && i < len(in); i++ {
			sum += in[i]
			out[i] = sum
		}
		totals = append(totals, sum)
	}
	return out, totals
}

func randomKeys(r *rand.Rand, n int, span uint32) []uint32 {
	keys := make([]uint32, n)
	for i := range keys {
		keys[i] = r.Uint32N(span)
	}
	return keys
}

// chunked applies f to each chunk-element chunk of in, padded with pad,
// and keeps len(in) elements of the result.
func chunked(in []uint32, chunk int, pad uint32, f func([]uint32)) []uint32 {
	var out []uint32
	for c := 0; c*chunk < len(in); c++ {
		part := make([]uint32, chunk)
		for i := range part {
			part[i] = pad
			if c*chunk+i < len(in) {
				part[i] = in[c*chunk+i]
			}
		}
		f(part)
		out = append(out, part...)
	}
	return out[:len(in)]
}

// positions returns the exclusive scan of the histogram of keys (one bin per
// value below span), with the total appended.
func positions(keys []uint32, span int, once bool) []uint32 {
	pos := make([]uint32, span+1)
	for _, k := range keys {
		if once {
			pos[k+1] = 1
		} else {
			pos[k+1]++
		}
	}
	for i := 1; i <= span; i++ {
		pos[i] += pos[i-1]
	}
	return pos
}

// setups gives, per kernel, the run for n elements.
var setups = map[string]func(r *rand.Rand, n int) setup{
	"sklansky32":      func(r *rand.Rand, n int) setup { return scanSetup(r, n, 32, false) },
	"sklansky1024":    func(r *rand.Rand, n int) setup { return scanSetup(r, n, 1024, false) },
	"sklanskyMax32":   func(r *rand.Rand, n int) setup { return scanSetup(r, n, 32, true) },
	"sklanskyMax1024": func(r *rand.Rand, n int) setup { return scanSetup(r, n, 1024, true) },
	"distribute": func(r *rand.Rand, n int) setup {
		data := randomKeys(r, n, 1<<20)
		sums := randomKeys(r, (n+1023)/1024, 1<<20)
		want := slices.Clone(data)
		for i := range want {
			if c := i / 1024; c > 0 {
				want[i] += sums[c-1]
			}
		}
		return setup{map[string]any{"sums": sums, "data": data}, map[string][]uint32{"data": want}}
	},
	"histogram": func(r *rand.Rand, n int) setup {
		span := 1 + r.IntN(300)
		keys, lo := randomKeys(r, n, uint32(span)), r.Uint32N(1000)
		bins := make([]uint32, span)
		for i := range keys {
			bins[keys[i]]++
			keys[i] += lo
		}
		return setup{map[string]any{"keys": keys, "lo": lo, "bins": make([]uint32, span), "bad": []uint32{0}},
			map[string][]uint32{"bins": bins, "bad": {0}}}
	},
	"occurs": func(r *rand.Rand, n int) setup {
		span := 1 + r.IntN(300)
		keys, lo := randomKeys(r, n, uint32(span)), r.Uint32N(1000)
		bins := make([]uint32, span)
		for i := range keys {
			bins[keys[i]] = 1
			keys[i] += lo
		}
		// A key past the range sets the flag and touches no bin.
		bad := uint32(0)
		if n > 1 {
			keys[r.IntN(n)] = lo + uint32(span)
			bad = 1
			bins = make([]uint32, span)
			for _, k := range keys {
				if k-lo < uint32(span) {
					bins[k-lo] = 1
				}
			}
		}
		return setup{map[string]any{"keys": keys, "lo": lo, "bins": make([]uint32, span), "bad": []uint32{0}},
			map[string][]uint32{"bins": bins, "bad": {bad}}}
	},
	"reconstruct":     func(r *rand.Rand, n int) setup { return reconstructSetup(r, n, false) },
	"reconstructOnce": func(r *rand.Rand, n int) setup { return reconstructSetup(r, n, true) },
	"rev256": func(r *rand.Rand, n int) setup {
		in := randomKeys(r, n, 1<<31)
		return setup{map[string]any{"input": in, "output": make([]uint32, n)},
			map[string][]uint32{"output": chunked(in, 256, 0, slices.Reverse)}}
	},
	"tworev256": func(r *rand.Rand, n int) setup {
		in := randomKeys(r, n, 1<<31)
		return setup{map[string]any{"input": in, "output": make([]uint32, n)},
			map[string][]uint32{"output": chunked(in, 256, 0, func(p []uint32) {
				slices.Reverse(p[:128])
				slices.Reverse(p[128:])
			})}}
	},
	"riffleTab256": func(r *rand.Rand, n int) setup {
		in := randomKeys(r, n, 1<<31)
		return setup{map[string]any{"input": in, "output": make([]uint32, n)},
			map[string][]uint32{"output": chunked(in, 256, 0, func(p []uint32) {
				halves := slices.Clone(p)
				for i := range p {
					p[i] = halves[i/2+i%2*128]
				}
			})}}
	},
	"oddEvenSort64": func(r *rand.Rand, n int) setup {
		in := randomKeys(r, n, 1000)
		return setup{map[string]any{"input": in, "output": make([]uint32, n)},
			map[string][]uint32{"output": chunked(in, 64, ^uint32(0), slices.Sort)}}
	},
}

func scanSetup(r *rand.Rand, n, chunk int, totals bool) setup {
	in := randomKeys(r, n, 1<<31)
	out, sums := scanRef(in, chunk)
	s := setup{map[string]any{"input": in, "output": make([]uint32, n)}, map[string][]uint32{"output": out}}
	if totals {
		s.args["maxs"], s.want["maxs"] = make([]uint32, len(sums)), sums
	}
	return s
}

func reconstructSetup(r *rand.Rand, n int, once bool) setup {
	span := 1 + r.IntN(500)
	keys, lo := randomKeys(r, n, uint32(span)), r.Uint32N(1000)
	pos := positions(keys, span, once)
	sorted := slices.Sorted(slices.Values(keys))
	if once {
		sorted = slices.Compact(sorted)
	}
	for i := range sorted {
		sorted[i] += lo
	}
	out := make([]uint32, len(sorted))
	return setup{map[string]any{"pos": pos, "lo": lo, "out": out}, map[string][]uint32{"out": sorted}}
}

// launch runs the kernel on dev with s's arguments and returns every array
// argument's contents afterwards.
func launch(t *testing.T, dev runtime.Device, e catalog.Entry, s setup) map[string][]uint32 {
	t.Helper()
	k, err := e.Kernel()
	if err != nil {
		t.Fatal(err)
	}
	f, err := dev.Load(k)
	if err != nil {
		t.Fatal(err)
	}
	var args []any
	bufs := map[string]*runtime.Buffer[uint32]{}
	for _, p := range k.Params {
		v, ok := s.args[p.Name()]
		if !ok {
			t.Fatalf("%s: no argument for %s", e.Name, p.Name())
		}
		switch v := v.(type) {
		case []uint32:
			b, err := runtime.FromSlice(dev, v)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Free()
			bufs[p.Name()] = b
			args = append(args, b)
		default:
			args = append(args, v)
		}
	}
	if err := dev.Launch(f, runtime.LaunchConfig{}, args...); err != nil {
		t.Fatalf("%s: %v", e.Name, err)
	}
	out := map[string][]uint32{}
	for name, b := range bufs {
		if out[name], err = b.ToSlice(); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// testSizes are the sizes every kernel runs at: tiny, around a warp, a
// block's worth and some, and random ones.
func testSizes(r *rand.Rand) []int {
	return []int{1, 2, 31, 32, 33, 1000, 4096, 1 + r.IntN(5000), 1 + r.IntN(70000)}
}

// checkKernels runs every catalogued kernel on dev at every size and
// compares its outputs with plain Go element by element; with cpu set it
// also compares with the CPU evaluator's outputs.
func checkKernels(t *testing.T, dev runtime.Device, cpu runtime.Device) {
	seed := rand.Uint64()
	t.Logf("inputs from seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 0))
	for _, e := range catalog.Entries() {
		mk, ok := setups[e.Name]
		if !ok {
			t.Errorf("%s: no test setup", e.Name)
			continue
		}
		for _, n := range testSizes(r) {
			t.Run(fmt.Sprintf("%s/n=%d", e.Name, n), func(t *testing.T) {
				s := mk(r, n)
				got := launch(t, dev, e, s)
				for name, want := range s.want {
					if i := firstDiff(got[name], want); i >= 0 {
						t.Fatalf("%s differs from plain Go at %d (of %d): got %v want %v", name, i, len(want), at(got[name], i), at(want, i))
					}
				}
				if cpu != nil {
					ref := launch(t, cpu, e, s)
					for name := range ref {
						if i := firstDiff(got[name], ref[name]); i >= 0 {
							t.Fatalf("%s differs from the CPU evaluator at %d", name, i)
						}
					}
				}
			})
		}
	}
}

func at(s []uint32, i int) any {
	if i < len(s) {
		return s[i]
	}
	return "(missing)"
}

func firstDiff(a, b []uint32) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

func TestKernelsMatchGoOnCPU(t *testing.T) {
	checkKernels(t, runtime.CPU(), nil)
}

func TestGPUKernelsMatchCPU(t *testing.T) {
	g := gputest.Open(t)
	checkKernels(t, g, runtime.CPU())
}

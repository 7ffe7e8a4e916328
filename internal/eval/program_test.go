package eval

import (
	"context"
	"fmt"
	"strings"
	gosync "sync"
	"testing"

	"github.com/obsidian-go/obsidian/ir"
)

// tileKernel works on tiles of 64 elements, a GridBlocks loop over them,
// with what a launch keeps state for: shared memory and barriers, a
// constant table, a scalar parameter, constants (whose warps the compiler
// makes once), a shuffle, and atomics on global memory. For tile c and
// thread j, with v(j) = (in[64c+63-j]*factors[c%4] + plus) ^ j, out[64c+j]
// is v(j^1), and hist counts the elements of in by their value mod 16.
func tileKernel() *ir.Kernel {
	in, out := global("in", ir.Uint32, ir.Input), global("out", ir.Uint32, ir.Output)
	hist := global("hist", ir.Uint32, ir.ReadWrite)
	plus := &ir.Var{Name: "plus", T: ir.Uint32}
	sh := shared("sh", ir.Uint32, 64)
	factors := &ir.Array{Name: "factors", Elem: ir.Uint32, Space: ir.Constant, Access: ir.Input, Size: 4, Pos: at(1),
		Values: []ir.Value{valueOf(uint32(3)), valueOf(uint32(5)), valueOf(uint32(7)), valueOf(uint32(1 << 31))}}
	vb, i, j, x, swapped := index("vb"), index("i"), index("j"), index("x"), index("swapped")
	base := mul(vb, u32(64))
	factor := ld(factors, rem(vb, u32(4)), 702)
	k := kernel(64, []*ir.Array{in, out, hist}, []*ir.Array{sh},
		forAll(ir.GridBlocks, vb, bin(ir.Div, &ir.Len{Array: in}, u32(64)), 700,
			forAll(ir.BlockThreads, i, u32(64), 701,
				st(sh, sub(u32(63), i), add(mul(ld(in, add(base, i), 702), factor), plus), 702),
				&ir.Atomic{Op: ir.AtomicAdd, Array: hist, Index: rem(ld(in, add(base, i), 703), u32(16)), Value: u32(1),
					Pos: at(703)}),
			sync(ir.BlockLevel, 704),
			forAll(ir.BlockThreads, j, u32(64), 705,
				decl(x, bin(ir.Xor, ld(sh, j, 706), j), 706),
				&ir.Shuffle{Mode: ir.ShuffleXor, Result: swapped, Value: x, Lane: u32(1), Pos: at(707)},
				st(out, add(base, j), swapped, 708)),
			sync(ir.BlockLevel, 709)))
	k.Params = append(k.Params, ir.Param{Scalar: plus})
	k.Constants = []*ir.Array{factors}
	return k
}

// tileReference computes what tileKernel leaves in out and hist, in Go.
func tileReference(in []uint32, plus uint32) (out, hist []uint32) {
	factors := []uint32{3, 5, 7, 1 << 31}
	out, hist = make([]uint32, len(in)), make([]uint32, 16)
	for c := range len(in) / 64 {
		v := func(j int) uint32 { return (in[64*c+63-j]*factors[c%4] + plus) ^ uint32(j) }
		for j := range 64 {
			out[64*c+j] = v(j ^ 1)
		}
	}
	for _, x := range in {
		hist[x%16]++
	}
	return out, hist
}

// tileLaunch is the input of one launch of tileKernel.
type tileLaunch struct {
	in     []uint32
	plus   uint32
	blocks int
}

// tileInput returns the input of launch round of goroutine g: a number of
// tiles, values and a grid that differ between goroutines and rounds.
func tileInput(g, round int) tileLaunch {
	n := 64 * (1 + (g+round)%6)
	in := make([]uint32, n)
	for i := range in {
		in[i] = uint32(i*7919+g*104729+round*31) ^ uint32(g)<<20
	}
	return tileLaunch{in: in, plus: uint32(g*1000 + round), blocks: 1 + (g*3+round)%4}
}

// run launches p on l's input and checks the results element by element
// against tileReference.
func (l tileLaunch) run(p *Program) error {
	in, out, hist := u32Buffer(l.in...), NewBuffer(ir.Uint32, len(l.in)), NewBuffer(ir.Uint32, 16)
	args := append(bufArgs(in, out, hist), Arg{Scalar: valueOf(l.plus)})
	if err := p.Launch(Config{Blocks: l.blocks}, args); err != nil {
		return err
	}
	wantOut, wantHist := tileReference(l.in, l.plus)
	for i, x := range u32s(out) {
		if x != wantOut[i] {
			return fmt.Errorf("%d elements, plus %d, %d blocks: out[%d] = %d, want %d", len(l.in), l.plus, l.blocks,
				i, x, wantOut[i])
		}
	}
	for i, x := range u32s(hist) {
		if x != wantHist[i] {
			return fmt.Errorf("%d elements, %d blocks: hist[%d] = %d, want %d", len(l.in), l.blocks, i, x, wantHist[i])
		}
	}
	return nil
}

// A program compiled once is launched by several goroutines at once, each
// on inputs of its own, and every launch computes what plain Go does; some
// launches fail at the same time, out of bounds, and only they. Under the
// race detector this also checks that launches share no state they write.
func TestProgramLaunchedConcurrently(t *testing.T) {
	manyWorkers(t)
	p, err := Compile(tileKernel())
	if err != nil {
		t.Fatal(err)
	}
	const goroutines, rounds = 8, 12
	errs := make([]error, goroutines)
	var wg gosync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for round := range rounds {
				l := tileInput(g, round)
				if g%4 == 3 && round%2 == 1 {
					// out is a tile short: the last tile's stores are out of bounds.
					in, out := u32Buffer(l.in...), NewBuffer(ir.Uint32, len(l.in)-64)
					args := append(bufArgs(in, out, NewBuffer(ir.Uint32, 16)), Arg{Scalar: valueOf(l.plus)})
					err := p.Launch(Config{Blocks: l.blocks}, args)
					if want := fmt.Sprintf("write to out[%d] out of bounds", len(l.in)-64); err == nil ||
						!containsAll(err.Error(), "user.go:708", want) {
						errs[g] = fmt.Errorf("goroutine %d, round %d: a launch with out too short: %v, want %q",
							g, round, err, want)
						return
					}
					continue
				}
				if err := l.run(p); err != nil {
					errs[g] = fmt.Errorf("goroutine %d, round %d: %w", g, round, err)
					return
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// containsAll reports whether s contains each of the parts.
func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// scatterKernel stores in[i] to out[to[i]] for every i: out of bounds where
// to holds an index past out, a data race where it holds one twice.
func scatterKernel() *ir.Kernel {
	in, to := global("in", ir.Uint32, ir.Input), global("to", ir.Uint32, ir.Input)
	out := global("out", ir.Uint32, ir.Output)
	i := index("i")
	return kernel(32, []*ir.Array{in, to, out}, nil,
		forAll(ir.GridThreads, i, &ir.Len{Array: in}, 800, st(out, ld(to, i, 801), ld(in, i, 801), 801)))
}

// A launch that fails, whatever it failed on, leaves the program as it was:
// the next launch computes its result and reports nothing of the failed one.
func TestProgramLaunchesAfterAFailedLaunch(t *testing.T) {
	manyWorkers(t)
	p, err := Compile(scatterKernel())
	if err != nil {
		t.Fatal(err)
	}
	const n = 256
	reversed := make([]uint32, n)
	for i := range reversed {
		reversed[i] = n - 1 - uint32(i)
	}
	withIndex := func(i int, x uint32) []uint32 {
		to := append([]uint32(nil), reversed...)
		to[i] = x
		return to
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	failures := []struct {
		name string
		to   []uint32
		ctx  context.Context
		want []string
	}{
		{"out of bounds", withIndex(200, n+5), nil, []string{"user.go:801", fmt.Sprintf("write to out[%d] out of bounds", n+5)}},
		{"a data race", withIndex(200, reversed[3]), nil, []string{"user.go:801", fmt.Sprintf("data race on out[%d]", reversed[3])}},
		{"a cancelled context", reversed, cancelled, []string{"cancelled before block"}},
	}
	for _, f := range failures {
		for _, blocks := range []int{1, 3, 8} {
			in, out := iota32(n), NewBuffer(ir.Uint32, n)
			err := p.Launch(Config{Blocks: blocks, Context: f.ctx}, bufArgs(in, u32Buffer(f.to...), out))
			if err == nil || !containsAll(err.Error(), f.want...) {
				t.Fatalf("%s, %d blocks: %v, want an error saying %q", f.name, blocks, err, f.want)
			}
			in, out = iota32(n), NewBuffer(ir.Uint32, n)
			if err := p.Launch(Config{Blocks: blocks}, bufArgs(in, u32Buffer(reversed...), out)); err != nil {
				t.Fatalf("after %s, %d blocks: %v", f.name, blocks, err)
			}
			for i, x := range u32s(out) {
				if want := n - 1 - uint32(i); x != want {
					t.Fatalf("after %s, %d blocks: out[%d] = %d, want %d", f.name, blocks, i, x, want)
				}
			}
		}
	}
}

// Compile reports the problems of a kernel as Launch does, with the same
// messages at the same positions, and Launch checks the grid before them.
func TestCompileReportsWhatLaunchDoes(t *testing.T) {
	in, out := global("in", ir.Uint32, ir.Input), global("out", ir.Uint32, ir.Output)
	i, w := index("i"), index("w")
	for _, c := range []struct {
		name   string
		kernel *ir.Kernel
		want   string
	}{
		{"too many threads", kernel(2048, []*ir.Array{out}, nil), "user.go:1: kernel k has 2048 threads per block, want 1 to 1024"},
		{"a write to an input", kernel(32, []*ir.Array{in}, nil, forAll(ir.GridThreads, i, u32(32), 900, st(in, i, i, 901))),
			"user.go:901: write to global array in, which is read-only"},
		{"warps of 48 threads", kernel(48, []*ir.Array{out}, nil,
			forAll(ir.BlockWarps, w, u32(1), 902, forAll(ir.WarpLanes, i, u32(32), 903, st(out, i, i, 904)))),
			"user.go:1: kernel k works on warps but has 48 threads per block, not a multiple of 32"},
	} {
		_, compileErr := Compile(c.kernel)
		launchErr := Launch(c.kernel, Config{Blocks: 1}, bufArgs(NewBuffer(ir.Uint32, 32)))
		switch {
		case compileErr == nil || compileErr.Error() != c.want:
			t.Errorf("%s: Compile: %v, want %q", c.name, compileErr, c.want)
		case launchErr == nil || launchErr.Error() != c.want:
			t.Errorf("%s: Launch: %v, want %q", c.name, launchErr, c.want)
		}
		wantGrid := "user.go:1: launch of kernel k with 0 blocks"
		if c.kernel.Threads <= maxThreadsPerBlk {
			if err := Launch(c.kernel, Config{Blocks: 0}, nil); err == nil || err.Error() != wantGrid {
				t.Errorf("%s: Launch of 0 blocks: %v, want %q", c.name, err, wantGrid)
			}
		}
	}
}

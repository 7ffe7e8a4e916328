package eval

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/ir"
)

// TestFirstWordIsBetweenBlocksOnAnUntouchedCell checks the shortcut of the
// launch's first access to a global cell against the general check: the
// same word, and no conflict.
func TestFirstWordIsBetweenBlocksOnAnUntouchedCell(t *testing.T) {
	props := properties(t)
	props.Property("firstWord is betweenBlocks on the word 0", prop.ForAll(func(seed uint64) bool {
		r := rand.New(rand.NewPCG(seed, seed>>32))
		owner := 1 + uint32(r.IntN(phaseBlocks))
		a := access{kind: accessKind(r.IntN(3)), sameValue: r.IntN(2) == 0, value: r.Uint64() & 0xff}
		old := r.Uint64() & 0xff
		want, c, race := betweenBlocks(0, owner, &a, old)
		if got := firstWord(owner, &a); got != want || race {
			t.Errorf("seed %d: owner %d, %v access (same value %v): firstWord %#x, betweenBlocks %#x (race %v: %+v)",
				seed, owner, a.kind, a.sameValue, got, want, race, c)
			return false
		}
		return true
	}, gen.UInt64()))
	props.TestingRun(t)
}

// copyLoadCase is a launch of copyLoadKernel: element type, local array
// length, input length, blocks, and each thread's index.
type copyLoadCase struct {
	elem         ir.Type
	local, input int
	blocks       int
	pick         []int32
}

// copyLoadThreads is the block size of copyLoadKernel.
const copyLoadThreads = 64

// copyLoadKernel returns a kernel in which thread g of the grid fills its
// local array loc of c.local elements with conv(g*7 + j*13) and stores
// loc[p] ^ in[p] to out[g], p = pick[g] (an int32, so that a negative index
// is out of bounds).
func copyLoadKernel(c copyLoadCase) *ir.Kernel {
	pick := global("pick", ir.Int32, ir.Input)
	in, out := global("in", c.elem, ir.Input), global("out", c.elem, ir.Output)
	loc := &ir.Array{Name: "loc", Elem: c.elem, Space: ir.Local, Access: ir.ReadWrite, Size: c.local, Pos: at(1)}
	g, j := index("g"), index("j")
	p := &ir.Var{Name: "p", T: ir.Int32}
	fill := &ir.For{Var: j, Count: u32(uint32(c.local)), Pos: at(10), Body: []ir.Stmt{
		st(loc, j, &ir.Convert{To: c.elem, X: add(mul(g, u32(7)), mul(j, u32(13)))}, 11),
	}}
	k := kernel(copyLoadThreads, []*ir.Array{pick, in, out}, nil, forAll(ir.GridThreads, g, &ir.Len{Array: out}, 2,
		fill,
		decl(p, ld(pick, g, 12), 12),
		st(out, g, bin(ir.Xor, ld(loc, p, 13), ld(in, p, 14)), 15)))
	k.Locals = []*ir.Array{loc}
	return k
}

// randomCopyLoad returns a case whose indexes are all in bounds, or, one
// time in two, may fall outside either array.
func randomCopyLoad(r *rand.Rand) copyLoadCase {
	types := []ir.Type{ir.Uint8, ir.Int16, ir.Uint32, ir.Int32, ir.Uint64, ir.Int64}
	c := copyLoadCase{elem: types[r.IntN(len(types))], local: 1 + r.IntN(20), input: 1 + r.IntN(40), blocks: 1 + r.IntN(3)}
	lo, hi := 0, min(c.local, c.input)
	if r.IntN(2) == 0 {
		lo, hi = -3, max(c.local, c.input)+3
	}
	c.pick = make([]int32, c.blocks*copyLoadThreads)
	for g := range c.pick {
		c.pick[g] = int32(lo + r.IntN(hi-lo))
	}
	return c
}

// expected returns what the launch of c on input in computes, or the
// error it reports first: the warps run in order, each loads loc for all
// its lanes, then in.
func (c copyLoadCase) expected(in *Buffer) ([]uint64, string) {
	conv, _ := ir.Conversion(ir.Uint32, c.elem)
	out := make([]uint64, len(c.pick))
	for w := 0; w < len(c.pick); w += warpSize {
		for _, check := range []struct {
			name string
			n    int
		}{{"loc", c.local}, {"in", c.input}} {
			for _, p := range c.pick[w : w+warpSize] {
				if p < 0 || int(p) >= check.n {
					return nil, fmt.Sprintf("read of %s[%v] out of bounds (length %d)", check.name,
						ir.Value{T: ir.Int32, Bits: uint64(uint32(p))}, check.n)
				}
			}
		}
		for g := w; g < w+warpSize; g++ {
			p := int(c.pick[g])
			out[g] = conv(uint64(uint32(g*7+p*13))) ^ in.Get(p).Bits
		}
	}
	return out, ""
}

// TestPerThreadAndUnwrittenAccessesMatchGo checks the accesses without race
// state, to local arrays and to global arrays no statement writes, of
// elements of every size, against Go: the values read, and the first
// index out of bounds.
func TestPerThreadAndUnwrittenAccessesMatchGo(t *testing.T) {
	props := properties(t)
	props.Property("local and read-only accesses read what Go does", prop.ForAll(func(seed uint64) bool {
		r := rand.New(rand.NewPCG(seed, seed>>32))
		c := randomCopyLoad(r)
		in, out, pick := NewBuffer(c.elem, c.input), NewBuffer(c.elem, len(c.pick)), NewBuffer(ir.Int32, len(c.pick))
		for i := range c.input {
			in.Set(i, ir.Value{T: c.elem, Bits: r.Uint64() & widthMask(c.elem)})
		}
		for g, p := range c.pick {
			pick.Set(g, valueOf(p))
		}
		err := Launch(copyLoadKernel(c), Config{Blocks: c.blocks}, bufArgs(pick, in, out))
		want, wantErr := c.expected(in)
		switch {
		case wantErr != "" && (err == nil || !strings.Contains(err.Error(), wantErr)):
			t.Errorf("seed %d, %v: error %v, want one saying %q", seed, c.elem, err, wantErr)
			return false
		case wantErr != "":
			return true
		case err != nil:
			t.Errorf("seed %d, %v: %v", seed, c.elem, err)
			return false
		}
		for g, w := range want {
			if got := out.Get(g).Bits; got != w {
				t.Errorf("seed %d, %v: out[%d] = %#x, want %#x", seed, c.elem, g, got, w)
				return false
			}
		}
		return true
	}, gen.UInt64()))
	props.TestingRun(t)
}

// TestQuickAccessesMatchTheGeneralChecks launches the kernels of FuzzEval
// (correct ones, and ones with races, accesses out of bounds, overlapping
// arguments and shared arrays at the same bytes) with the accesses that
// race with nothing recorded in the loops without calls, and with every
// access taking the general checks: both must compute the same memory and
// report the same problems. The blocks run on one worker, so that the
// reports do not depend on the order the workers run in.
func TestQuickAccessesMatchTheGeneralChecks(t *testing.T) {
	defer goruntime.GOMAXPROCS(goruntime.GOMAXPROCS(1))
	defer func(saved int) { maxLaunchSteps = saved }(maxLaunchSteps)
	maxLaunchSteps = 1 << 14
	props := properties(t)
	props.Property("quick and general checks agree", prop.ForAll(func(seed uint64) bool {
		r := rand.New(rand.NewPCG(seed, seed>>32))
		how, blocks, depth := r.IntN(mutations), r.IntN(256), r.IntN(4)
		var memory [2][][]byte
		var errs [2]string
		for run, quick := range []bool{true, false} {
			k, args, nblocks, err := drawLaunch(int64(seed), blocks, how, depth)
			switch {
			case errors.Is(err, errNoKernel):
				return true
			case err != nil:
				t.Errorf("seed %d: %v", seed, err)
				return false
			}
			quickAccesses = quick
			err = Launch(k, Config{Blocks: nblocks}, args)
			quickAccesses = true
			if err != nil {
				errs[run] = err.Error()
			}
			for _, a := range args {
				if a.Buffer != nil {
					memory[run] = append(memory[run], a.Buffer.Data)
				}
			}
		}
		if errs[0] != errs[1] {
			t.Errorf("seed %d (change %d): with quick accesses the launch reports %q, without %q", seed, how, errs[0], errs[1])
			return false
		}
		for i := range memory[0] {
			if !bytes.Equal(memory[0][i], memory[1][i]) {
				t.Errorf("seed %d (change %d): argument %d differs with quick accesses", seed, how, i)
				return false
			}
		}
		return true
	}, gen.UInt64()))
	props.TestingRun(t)
}

// TestUnwrittenReadOfTheFirstArray reads a shared array that is the
// kernel's first memory (it has no array parameter), so that its slot is
// the writer a cell's zero record names, in two barrier intervals: both
// reads of the unwritten cells must be reported.
func TestUnwrittenReadOfTheFirstArray(t *testing.T) {
	sh := shared("sh", ir.Uint32, 64)
	b, i, j := index("b"), index("i"), index("j")
	x, y := index("x"), index("y")
	k := kernel(64, nil, []*ir.Array{sh}, forAll(ir.GridBlocks, b, u32(1), 2,
		forAll(ir.BlockThreads, i, u32(64), 3, decl(x, ld(sh, i, 4), 4)),
		sync(ir.BlockLevel, 5),
		forAll(ir.BlockThreads, j, u32(64), 6, decl(y, ld(sh, j, 7), 7))))
	err := Launch(k, Config{Blocks: 1}, nil)
	wantError(t, err, "user.go:4: read of shared memory sh[0] that this block never wrote")
	wantError(t, err, "user.go:7: read of shared memory sh[0] that this block never wrote")
}

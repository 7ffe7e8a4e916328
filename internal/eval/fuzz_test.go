package eval

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/leanovate/gopter"

	"github.com/obsidian-go/obsidian/codegen"
	"github.com/obsidian-go/obsidian/internal/irgen"
	"github.com/obsidian-go/obsidian/ir"
)

// The ways FuzzEval changes a generated launch. The first ones keep it
// correct, so it must run without an error; the others make it wrong, so
// it may fail, but only with errors at positions.
const (
	asGenerated      = iota // the generated kernel and arguments
	compiled                // codegen.Compile's copy, with shared memory laid out
	moreBlocks              // up to 8 blocks
	aliased                 // dst and acc are overlapping views of one buffer
	shortened               // an array argument loses elements: accesses go out of bounds
	wrongArguments          // an argument of another type, or one too few
	brokenLayout            // compiled, then every shared array moved to offset 0
	illFormed               // a random kernel that is mostly, not always, well formed
	mutations               // the number of ways
	firstWrongLaunch = aliased
)

// FuzzEval launches kernels of internal/irgen's generator, drawn from a
// seed, on small grids, correct or changed in one of the ways above. A
// launch must never panic or hang (the steps of a launch are bounded), a
// correct launch must succeed, and every error must be an *ir.Error at a
// position. A correct kernel is also compiled once and launched twice more,
// each time on a copy of the arguments as they were: both launches must
// leave what the first left.
func FuzzEval(f *testing.F) {
	for m := range mutations {
		f.Add(int64(m*7919+1), uint8(m), uint8(m), uint8(2))
	}
	saved := maxLaunchSteps
	maxLaunchSteps = 1 << 14
	f.Cleanup(func() { maxLaunchSteps = saved })
	f.Fuzz(func(t *testing.T, seed int64, blocks, mutation, depth uint8) {
		how := int(mutation) % mutations
		k, args, nblocks := fuzzLaunch(t, seed, int(blocks), how, int(depth%4))
		before := cloneArgs(args)
		err := Launch(k, Config{Blocks: nblocks}, args)
		if how < firstWrongLaunch && err != nil {
			t.Fatalf("a correct launch of %d blocks (change %d) fails: %v\n%s", nblocks, how, err,
				irgen.FormatKernel(k))
		}
		checkPositioned(t, err)
		if how < firstWrongLaunch {
			checkRelaunches(t, k, nblocks, before, args)
		}
	})
}

// cloneArgs returns a copy of args whose buffers are copies of theirs (so
// not views of one another, whatever args' are).
func cloneArgs(args []Arg) []Arg {
	clone := slices.Clone(args)
	for i, a := range clone {
		if a.Buffer != nil {
			clone[i].Buffer = &Buffer{Elem: a.Buffer.Elem, Data: slices.Clone(a.Buffer.Data)}
		}
	}
	return clone
}

// checkRelaunches compiles k, whose launch of blocks blocks on arguments
// before left after, and launches the program twice, each time on a copy
// of before: both launches must succeed and leave after's bytes.
func checkRelaunches(t *testing.T, k *ir.Kernel, blocks int, before, after []Arg) {
	t.Helper()
	p, err := Compile(k)
	if err != nil {
		t.Fatalf("Compile of a kernel that Launch ran: %v\n%s", err, irgen.FormatKernel(k))
	}
	for launch := range 2 {
		args := cloneArgs(before)
		if err := p.Launch(Config{Blocks: blocks}, args); err != nil {
			t.Fatalf("launch %d of the compiled program fails: %v\n%s", launch+1, err, irgen.FormatKernel(k))
		}
		for i, a := range args {
			if a.Buffer != nil && !bytes.Equal(a.Buffer.Data, after[i].Buffer.Data) {
				t.Fatalf("launch %d of the compiled program leaves argument %d other than Launch did:\n%v\nwant\n%v\n%s",
					launch+1, i, a.Buffer.Data, after[i].Buffer.Data, irgen.FormatKernel(k))
			}
		}
	}
}

// fuzzLaunch draws a kernel and its arguments from seed and changes them
// as how says.
func fuzzLaunch(t *testing.T, seed int64, blocks, how, depth int) (*ir.Kernel, []Arg, int) {
	k, args, nblocks, err := drawLaunch(seed, blocks, how, depth)
	switch {
	case errors.Is(err, errNoKernel):
		t.Skip(err)
	case err != nil:
		t.Fatal(err)
	}
	return k, args, nblocks
}

// errNoKernel is drawLaunch's error when the generator draws no kernel.
var errNoKernel = errors.New("the generator drew no kernel")

// drawLaunch is fuzzLaunch, returning an error where it stops the test.
func drawLaunch(seed int64, blocks, how, depth int) (*ir.Kernel, []Arg, int, error) {
	if how == illFormed {
		g := &randomIR{r: rand.New(rand.NewSource(seed)), vars: map[ir.Type]*ir.Var{}, arrays: map[ir.Type][]*ir.Array{}}
		k := kernel(64, nil, nil)
		var args []Arg
		for _, t := range ir.Types {
			g.vars[t] = &ir.Var{Name: "v" + t.String(), T: t}
			a, s := global("g"+t.String(), t, ir.ReadWrite), shared("s"+t.String(), t, 8)
			g.arrays[t] = []*ir.Array{a, s}
			k.Params = append(k.Params, ir.Param{Array: a})
			args = append(args, Arg{Buffer: NewBuffer(t, 8)})
			k.Shared = append(k.Shared, s)
		}
		k.Body = g.stmts(ir.GridLevel, 1+depth)
		return k, args, 1 + blocks%3, nil
	}
	res := irgen.Kernel(depth)(gopter.DefaultGenParameters().CloneWithSeed(seed))
	v, ok := res.Retrieve()
	if !ok {
		return nil, nil, 0, errNoKernel
	}
	p := v.(*irgen.Program)
	k, nblocks := p.Kernel, p.Blocks
	args := make([]Arg, len(p.Args))
	for i, a := range p.Args {
		if param := k.Params[i]; param.Array != nil {
			args[i] = Arg{Buffer: NewBuffer(param.Array.Elem, len(a.Elems))}
			for j, x := range a.Elems {
				args[i].Buffer.Set(j, x)
			}
		} else {
			args[i] = Arg{Scalar: a.Scalar}
		}
	}
	switch how {
	case compiled, brokenLayout:
		c, err := codegen.Compile(k, codegen.DefaultTarget)
		if err != nil {
			return nil, nil, 0, fmt.Errorf("a generated kernel does not compile: %v\n%s", err, irgen.FormatKernel(k))
		}
		k = c
		if how == brokenLayout {
			for _, a := range k.Shared {
				a.Offset = 0
			}
		}
	case moreBlocks:
		nblocks = 1 + blocks%8
	case aliased:
		// dst (parameter 1) and acc (parameter 2) over one allocation,
		// acc starting inside dst.
		dst, acc := args[1].Buffer, args[2].Buffer
		data := make([]byte, len(dst.Data)+len(acc.Data))
		start := blocks % (len(dst.Data) + 1) &^ 7
		args[1].Buffer = &Buffer{Elem: dst.Elem, Data: data[:len(dst.Data)]}
		args[2].Buffer = &Buffer{Elem: acc.Elem, Data: data[start : start+len(acc.Data)]}
	case shortened:
		b := args[blocks%3].Buffer
		b.Data = b.Data[:len(b.Data)/2/b.Elem.Size()*b.Elem.Size()]
	case wrongArguments:
		if blocks%2 == 0 {
			args = args[:len(args)-1]
		} else {
			args[0] = Arg{Buffer: NewBuffer(ir.Bool, 3)}
		}
	}
	return k, args, nblocks, nil
}

// checkPositioned fails t unless err is nil or a tree of joined *ir.Error
// values, each at a position, none an internal error of the evaluator.
func checkPositioned(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range joined.Unwrap() {
			checkPositioned(t, e)
		}
		return
	}
	var e *ir.Error
	switch {
	case !errors.As(err, &e):
		t.Fatalf("error %v is not an *ir.Error", err)
	case e.Pos.File == "" || e.Pos.Line <= 0:
		t.Fatalf("error %v has no position", err)
	case strings.Contains(e.Msg, "internal error"):
		t.Fatalf("the evaluator failed: %v", err)
	}
}

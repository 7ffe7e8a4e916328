package eval

import (
	"errors"
	"fmt"
	"math/rand"
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
// position.
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
		err := Launch(k, Config{Blocks: nblocks}, args)
		if how < firstWrongLaunch && err != nil {
			t.Fatalf("a correct launch of %d blocks (change %d) fails: %v\n%s", nblocks, how, err,
				irgen.FormatKernel(k))
		}
		checkPositioned(t, err)
	})
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

package irgen_test

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/codegen"
	"github.com/obsidian-go/obsidian/internal/eval"
	"github.com/obsidian-go/obsidian/internal/irgen"
	"github.com/obsidian-go/obsidian/ir"
)

// launch runs k in the evaluator with fresh buffers holding p's arguments
// and returns the final contents of its array arguments.
func launch(k *ir.Kernel, p *irgen.Program) ([][]ir.Value, error) {
	args := make([]eval.Arg, len(p.Args))
	for i, a := range p.Args {
		param := k.Params[i]
		if param.Array == nil {
			args[i] = eval.Arg{Scalar: a.Scalar}
			continue
		}
		b := eval.NewBuffer(param.Array.Elem, len(a.Elems))
		for j, v := range a.Elems {
			b.Set(j, v)
		}
		args[i] = eval.Arg{Buffer: b}
	}
	if err := eval.Launch(k, eval.Config{Blocks: p.Blocks}, args); err != nil {
		return nil, err
	}
	var out [][]ir.Value
	for _, a := range args {
		if a.Buffer == nil {
			continue
		}
		vs := make([]ir.Value, a.Buffer.Len())
		for j := range vs {
			vs[j] = a.Buffer.Get(j)
		}
		out = append(out, vs)
	}
	return out, nil
}

// checkProgram verifies p's kernel and launches it; it returns what is
// wrong, or "" and the outputs.
func checkProgram(p *irgen.Program) (string, [][]ir.Value) {
	if err := codegen.Verify(p.Kernel, codegen.DefaultTarget); err != nil {
		return fmt.Sprintf("generated kernel fails verification: %v\n%v", err, p), nil
	}
	out, err := launch(p.Kernel, p)
	if err != nil {
		return fmt.Sprintf("eval.Launch: %v\n%v", err, p), nil
	}
	return "", out
}

// TestCompiledKernelsComputeTheSame checks that generated kernels launch
// without error in the evaluator, and that codegen.Compile's simplified
// copy computes the same outputs.
func TestCompiledKernelsComputeTheSame(t *testing.T) {
	props := properties(t, 1000)
	props.Property("Compile keeps what a kernel computes", prop.ForAll(func(p *irgen.Program) string {
		msg, want := checkProgram(p)
		if msg != "" {
			return msg
		}
		c, err := codegen.Compile(p.Kernel, codegen.DefaultTarget)
		if err != nil {
			return fmt.Sprintf("Compile: %v\n%v", err, p)
		}
		got, err := launch(c, p)
		if err != nil {
			return fmt.Sprintf("eval.Launch of the compiled kernel: %v\n%v\ncompiled:\n%s", err, p,
				irgen.FormatKernel(c))
		}
		for i := range want {
			for j := range want[i] {
				if !sameValue(got[i][j], want[i][j]) {
					return fmt.Sprintf("array %s[%d] is %s after Compile, %s before\n%v\ncompiled:\n%s",
						p.Kernel.Params[i].Name(), j, got[i][j], want[i][j], p, irgen.FormatKernel(c))
				}
			}
		}
		return ""
	}, irgen.Kernel(3)))
	props.TestingRun(t)
}

// TestKernelShrinksAreWellFormed checks that shrinks of generated kernels
// still verify and launch without error.
func TestKernelShrinksAreWellFormed(t *testing.T) {
	props := properties(t, 100)
	props.Property("shrinks are well formed", prop.ForAll(func(p *irgen.Program, seed int64) string {
		shrinks := irgen.ShrinkProgram(p).All()
		rng := rand.New(rand.NewSource(seed))
		for n := 0; n < 8 && len(shrinks) > 0; n++ {
			s := shrinks[rng.Intn(len(shrinks))].(*irgen.Program)
			if msg, _ := checkProgram(s); msg != "" {
				return fmt.Sprintf("a shrink of\n%v\nis wrong: %s", p, msg)
			}
		}
		return ""
	}, irgen.Kernel(2), gen.Int64()))
	props.TestingRun(t)
}

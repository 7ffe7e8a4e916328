package gen

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/obsidian-go/obsidian/ir"
)

const (
	runtimePath = "github.com/obsidian-go/obsidian/runtime"
	irPath      = "github.com/obsidian-go/obsidian/ir"
)

// BuildTag is the build tag the driver program of obsgen run is built
// with. A launcher file is excluded from that build, so that a package whose
// launcher file is missing or out of date can still be built to make it;
// files of the package that call its launchers must carry the constraint
// `//go:build !obsgen` too.
const BuildTag = "obsgen"

// LauncherFileName returns the name of the launcher file of package pkg.
func LauncherFileName(pkg string) string { return pkg + "_launch.go" }

// LauncherFile returns the Go source of package pkg's launcher file: for
// every kernel, a typed function that launches it (see the package
// documentation). The package must define Kernels (the convention), which
// the launchers call on devices other than GPUs. madeBy says how the file
// was made, for its second comment line.
func LauncherFile(pkg, madeBy string, kernels []Printed) ([]byte, error) {
	f := jen.NewFile(pkg)
	f.HeaderComment(Header)
	f.HeaderComment("Made by " + madeBy + ".")
	f.HeaderComment("")
	f.HeaderComment("//go:build !" + BuildTag)
	f.ImportAlias(runtimePath, "runtime")
	taken := map[string]string{}
	for _, p := range kernels {
		name := exportedName(p.Kernel.Name)
		if other, ok := taken[name]; ok {
			return nil, fmt.Errorf("kernels %s and %s both want a launcher called %s", other, p.Kernel.Name, name)
		}
		taken[name] = p.Kernel.Name
		launcher(f, name, p)
	}
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, fmt.Errorf("rendering the launchers of package %s: %w", pkg, err)
	}
	return buf.Bytes(), nil
}

// launcher adds kernel p's launcher, called name, to f.
func launcher(f *jen.File, name string, p Printed) {
	k := p.Kernel
	kernelVar := "obsgen" + name
	cudaConst := kernelVar + "CUDA"

	names := make([]string, len(k.Params))
	for i, prm := range k.Params {
		names[i] = prm.Name()
	}
	goNames := paramNames(names)
	h := &hostExpr{scalars: map[*ir.Var]string{}, arrays: map[*ir.Array]string{}, fault: "fault"}
	var params, args, sig []jen.Code
	params = append(params, jen.Id("dev").Qual(runtimePath, "Device"), jen.Id("cfg").Qual(runtimePath, "LaunchConfig"))
	for i, prm := range k.Params {
		id := jen.Id(goNames[i])
		if prm.Array != nil {
			h.arrays[prm.Array] = goNames[i]
			params = append(params, id.Op("*").Qual(runtimePath, "Buffer").Types(goType(prm.Array.Elem)))
			sig = append(sig, fields("Name", jen.Lit(prm.Array.Name), "Type", irType(prm.Array.Elem), "Array", jen.True()))
		} else {
			h.scalars[prm.Scalar] = goNames[i]
			params = append(params, id.Add(goType(prm.Scalar.T)))
			sig = append(sig, fields("Name", jen.Lit(prm.Scalar.Name), "Type", irType(prm.Scalar.T)))
		}
		args = append(args, jen.Id(goNames[i]))
	}

	f.Commentf("%s is the CUDA text of kernel %s.", cudaConst, k.Name)
	f.Const().Id(cudaConst).Op("=").Add(stringLiteral(p.CUDA))
	f.Line()
	f.Commentf("%s is kernel %s, loaded at most once per device.", kernelVar, k.Name)
	f.Var().Id(kernelVar).Op("=").Op("&").Qual(launchPath, "Kernel").Values(listLines([]jen.Code{
		jen.Id("Name").Op(":").Lit(k.Name),
		jen.Id("CUDA").Op(":").Id(cudaConst),
		jen.Id("Signature").Op(":").Qual(runtimePath, "Signature").Values(listLines(sig)...),
		jen.Id("Threads").Op(":").Lit(k.Threads),
		jen.Id("SharedBytes").Op(":").Lit(k.SharedBytes),
		jen.Id("Kernels").Op(":").Id("Kernels"),
	})...)
	f.Line()

	blocks := blocksFunc(h, k)
	for _, line := range strings.Split(launcherDoc(name, k, blocks != nil), "\n") {
		f.Comment(line)
	}
	f.Func().Id(name).Params(params...).Error().Block(
		jen.Return(jen.Id(kernelVar).Dot("Launch").Call(append([]jen.Code{jen.Id("dev"), jen.Id("cfg"), blocksOrNil(blocks)}, args...)...)),
	)
	f.Line()
}

// blocksFunc returns a function literal computing k's number of blocks,
// or nil when it depends on more than the parameters.
func blocksFunc(h *hostExpr, k *ir.Kernel) *jen.Statement {
	blocks := k.Blocks
	if blocks == nil {
		blocks = &ir.Const{Value: ir.UintValue(ir.Uint32, 1)}
	}
	if !blocks.Type().IsInteger() {
		return nil
	}
	e, err := h.expr(blocks)
	if errors.Is(err, errNotHost) || err != nil {
		return nil
	}
	return jen.Func().Params().Params(jen.Int(), jen.Error()).Block(
		jen.Var().Id(h.fault).Qual(launchPath, "Fault"),
		jen.Id("blocks").Op(":=").Qual(launchPath, "Blocks").Call(e),
		jen.Return(jen.Id("blocks"), jen.Id(h.fault).Dot("Err").Call()),
	)
}

func blocksOrNil(blocks *jen.Statement) jen.Code {
	if blocks == nil {
		return jen.Nil()
	}
	return blocks
}

// launcherDoc returns the doc comment of kernel k's launcher.
func launcherDoc(name string, k *ir.Kernel, hostBlocks bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s launches kernel %s on dev (%d threads per block, %d bytes of shared memory).\n", name, k.Name, k.Threads, k.SharedBytes)
	if hostBlocks {
		b.WriteString("When cfg.Blocks is 0 it launches as many blocks as the kernel needs for its arguments.\n")
	} else {
		b.WriteString("Its number of blocks depends on more than its parameters: cfg.Blocks must be set.\n")
	}
	b.WriteString("On a GPU it compiles the embedded CUDA text; on another device it builds the kernel from Kernels().")
	return b.String()
}

// irType returns the Go expression naming t in package ir.
func irType(t ir.Type) jen.Code {
	name := map[ir.Type]string{ir.Bool: "Bool", ir.Int32: "Int32", ir.Uint32: "Uint32", ir.Int64: "Int64",
		ir.Uint64: "Uint64", ir.Float32: "Float32", ir.Float64: "Float64"}[t]
	return jen.Qual(irPath, name)
}

// fields returns a composite literal of keyed fields, in the order given:
// name, value, name, value, ...
func fields(pairs ...any) *jen.Statement {
	var items []jen.Code
	for i := 0; i < len(pairs); i += 2 {
		items = append(items, jen.Id(pairs[i].(string)).Op(":").Add(pairs[i+1].(jen.Code)))
	}
	return jen.Values(items...)
}

// listLines lays out a composite literal's elements one per line.
func listLines(items []jen.Code) []jen.Code {
	out := make([]jen.Code, len(items))
	for i, it := range items {
		line := jen.Line().Add(it)
		if i == len(items)-1 {
			line.Op(",").Line()
		}
		out[i] = line
	}
	return out
}

// stringLiteral returns s as a raw string literal when it can be one, so
// that the CUDA text reads as itself in the Go file.
func stringLiteral(s string) jen.Code {
	if strings.ContainsAny(s, "`\r") {
		return jen.Lit(s)
	}
	return jen.Op("`" + s + "`")
}

package gen

import (
	"bytes"
	"errors"
	"fmt"
	"go/token"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/obsidian-go/obsidian/ir"
)

const (
	runtimePath = "github.com/obsidian-go/obsidian/runtime"
	irPath      = "github.com/obsidian-go/obsidian/ir"
)

// LauncherFileName returns the name of the launcher file of package pkg.
func LauncherFileName(pkg string) string { return pkg + "_launch.go" }

// LauncherFile returns the Go source of the launcher file of the package
// whose own files s describes: for every kernel, a typed function that
// launches it (see the package documentation). The package must define
// Kernels (the convention), which the launchers call on devices other than
// GPUs. madeBy says how the file was made, for its second comment line.
//
// Every name the file takes is checked: two kernels whose launchers (or
// helpers) would share a name, a kernel whose launcher would be called
// Kernels, and a name the package's files declare or import that the file
// would declare too, or hide a predeclared identifier the file uses, are a
// *NameClashError naming both holders and the fix. The file's imports are
// renamed (to obsgen<name>) when the package declares their names.
func LauncherFile(s Scope, madeBy string, kernels []Printed) ([]byte, error) {
	if err := checkPackageName(s.Name); err != nil {
		return nil, err
	}
	f := jen.NewFile(s.Name)
	f.HeaderComment(Header)
	f.HeaderComment(madeByComment(madeBy))
	reserved := setOf("dev cfg fault")
	for _, path := range importPaths {
		alias := path[strings.LastIndex(path, "/")+1:]
		if _, taken := s.Declared[alias]; taken {
			alias = "obsgen" + alias
		}
		f.ImportAlias(path, alias)
		reserved[alias] = true
	}
	names := newFileNames(s.Name)
	for i, p := range kernels {
		if p.Kernel == nil {
			return nil, fmt.Errorf("package %s: kernel %d of the list is nil", s.Name, i)
		}
		k := p.Kernel.Name
		if !token.IsIdentifier(k) && !token.IsKeyword(k) { // a kernel may be called func
			return nil, fmt.Errorf("package %s: kernel %q: its name is not an identifier (kernels built with Build have C identifiers)", s.Name, k)
		}
		for j, prm := range p.Kernel.Params {
			if (prm.Array == nil) == (prm.Scalar == nil) {
				return nil, fmt.Errorf("package %s: kernel %s: parameter %d is not one array or one scalar (print kernels with Print)", s.Name, k, j)
			}
		}
		name := exportedName(k)
		for _, d := range []struct{ name, use string }{
			{name, "the launcher of kernel " + k},
			{helperName(name), "the loader of kernel " + k},
			{cudaName(name), "the CUDA text of kernel " + k},
		} {
			if err := names.declare(d.name, d.use, "rename kernel "+k); err != nil {
				return nil, err
			}
		}
		launcher(f, name, p, reserved)
	}
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, fmt.Errorf("rendering the launchers of package %s: %w", s.Name, err)
	}
	if err := names.checkAgainst(s, buf.Bytes()); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// importPaths are the packages a launcher file may import.
var importPaths = []string{launchPath, irPath, runtimePath, "math"}

// helperName returns the name of the launch.Kernel of the launcher called
// name; cudaName that of its CUDA text.
func helperName(name string) string { return "obsgen" + name }

func cudaName(name string) string { return helperName(name) + "CUDA" }

// launcher adds kernel p's launcher, called name, to f. Its parameters
// take none of the names reserved, which its body uses.
func launcher(f *jen.File, name string, p Printed, reserved map[string]bool) {
	k := p.Kernel
	kernelVar := helperName(name)
	cudaConst := cudaName(name)

	names := make([]string, len(k.Params))
	for i, prm := range k.Params {
		names[i] = prm.Name()
	}
	goNames := paramNames(names, reserved)
	h := &hostExpr{scalars: map[*ir.Var]string{}, arrays: map[*ir.Array]string{}, fault: "fault"}
	var params, args, sig []jen.Code
	params = append(params, jen.Id("dev").Qual(runtimePath, "Device"), jen.Id("cfg").Qual(runtimePath, "LaunchConfig"))
	for i, prm := range k.Params {
		id := jen.Id(goNames[i])
		if prm.Array != nil {
			h.arrays[prm.Array] = goNames[i]
			params = append(params, id.Op("*").Qual(runtimePath, "Buffer").Types(goType(prm.Array.Elem)))
			param := []any{"Name", jen.Lit(prm.Array.Name), "Type", irType(prm.Array.Elem), "Array", jen.True()}
			if prm.Array.Align != 0 {
				param = append(param, "Align", jen.Lit(prm.Array.Align))
			}
			sig = append(sig, fields(param...))
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
	f.Commentf("%s is kernel %s, with the functions it loaded on devices.", kernelVar, k.Name)
	f.Var().Id(kernelVar).Op("=").Op("&").Qual(launchPath, "Kernel").Values(listLines([]jen.Code{
		jen.Id("Name").Op(":").Lit(k.Name),
		jen.Id("CUDA").Op(":").Id(cudaConst),
		jen.Id("Signature").Op(":").Qual(runtimePath, "Signature").Values(listLines(sig)...),
		jen.Id("Threads").Op(":").Lit(k.Threads),
		jen.Id("SharedBytes").Op(":").Lit(k.SharedBytes),
		jen.Id("Kernels").Op(":").Id(kernelsFunc),
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

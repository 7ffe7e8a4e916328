package dsl

import (
	"github.com/obsidian-go/obsidian/check"
	"github.com/obsidian-go/obsidian/ir"
)

// ConstTable declares a table of constants of the kernel, named name: an
// array of len(values) elements, values' copy taken now, that the kernel
// only reads. It is held in CUDA's constant memory (printed as a
// file-scope __constant__ array before the kernel, whose reads of one
// element by a whole warp cost one access) and is no parameter: a launch
// passes nothing for it. Its length is a constant, as a shared array's.
//
// A table may be declared before or inside the kernel's body (a
// combinator declares the tables it needs), and used anywhere in the
// body. Its name must be one no parameter, array or kernel has, and a C
// identifier CUDA does not use. An empty table, a store or an atomic on
// it, and tables of more than check.MaxConstantBytes bytes together are
// errors at the user's line; an index at or past the length is reported
// by the evaluator, as for any array.
func ConstTable[T Scalar](k *Kernel, name string, values []T) Array[T] {
	pos := callerPos()
	if k == nil {
		nilKernel("constant table "+name+" declared", pos)
		return Array[T]{}
	}
	a := &ir.Array{Name: name, Elem: TypeOf[T](), Space: ir.Constant, Access: ir.Input, Size: len(values), Pos: pos}
	a.Values = make([]ir.Value, len(values))
	for i, v := range values {
		a.Values[i] = valueOf(v)
	}
	bytes := len(values) * a.Elem.Size()
	for _, c := range k.ir.Constants {
		bytes += c.Bytes()
	}
	switch err := check.CheckName(name); {
	case k.built:
		k.errorf(pos, "constant table %q declared after kernel %s was built", name, k.ir.Name)
	case err != nil:
		k.errorf(pos, "constant table %q of kernel %s: %v", name, k.ir.Name, err)
	case k.names[name] != "":
		k.errorf(pos, "constant table %q of kernel %s is named like %s", name, k.ir.Name, k.names[name])
	case len(values) == 0:
		k.errorf(pos, "constant table %q of kernel %s has no elements; it needs at least one", name, k.ir.Name)
	case bytes > check.MaxConstantBytes:
		k.errorf(pos, "constant table %q of kernel %s: %d elements of %v make the kernel's tables %d bytes; "+
			"constant memory holds %d", name, k.ir.Name, len(values), a.Elem, bytes, check.MaxConstantBytes)
	default:
		k.names[name] = "the constant table " + name
		k.ir.Constants = append(k.ir.Constants, a)
	}
	k.arrays[a] = true
	return Array[T]{a: a, k: k}
}

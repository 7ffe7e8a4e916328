package codegen

import "github.com/obsidian-go/obsidian/ir"

// Compile verifies k for t and returns a simplified deep copy of it with its
// shared arrays laid out (Offset of each shared array and SharedBytes set).
// k itself is not modified.
func Compile(k *ir.Kernel, t Target) (*ir.Kernel, error) {
	if err := Verify(k, t); err != nil {
		return nil, err
	}
	c := deepCopy(k)
	simplifyKernel(c)
	l := layout(c)
	if err := l.check(c, t); err != nil {
		return nil, err
	}
	l.apply(c)
	return c, nil
}

// CUDA compiles k for DefaultTarget and prints it. It returns the CUDA C
// text and the compiled kernel (whose SharedBytes a launch needs).
func CUDA(k *ir.Kernel) (string, *ir.Kernel, error) {
	c, err := Compile(k, DefaultTarget)
	if err != nil {
		return "", nil, err
	}
	return Print(c), c, nil
}

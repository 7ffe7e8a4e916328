package dsl_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/codegen"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
)

// lookupKernel returns a kernel that reads, for every element i of its
// input, the element in[i] mod len(table) of a constant table of the
// given values, and writes it to its output.
func lookupKernel[T dsl.Scalar](table []T) *dsl.Kernel {
	k := dsl.NewKernel("lookup", 64)
	tab := dsl.ConstTable(k, "tab", table)
	in := dsl.Input[uint32](k, "in")
	out := dsl.Output[T](k, "out")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(out.Len().Min(in.Len()), func(t *dsl.Thread, i dsl.U32) {
			out.Store(t, i, tab.At(in.At(i).Rem(tab.Len())))
		})
	})
	return k
}

// lookup runs lookupKernel(table) on dev over the indices and returns its
// output.
func lookup[T dsl.Scalar](t *testing.T, dev runtime.Device, table []T, indices []uint32) []T {
	t.Helper()
	return launchOneToOne[uint32, T](t, dev, lookupKernel(table), indices, len(indices))
}

// launchOneToOne builds kernel (whose parameters are one input and one
// output), loads it on dev, launches it over in with an output of outLen
// elements and returns the output.
func launchOneToOne[In, Out dsl.Scalar](t *testing.T, dev runtime.Device, kernel *dsl.Kernel, in []In, outLen int) []Out {
	t.Helper()
	built, err := kernel.Build()
	if err != nil {
		t.Fatal(err)
	}
	fn, err := dev.Load(built)
	if err != nil {
		t.Fatal(err)
	}
	inb, err := runtime.FromSlice(dev, in)
	if err != nil {
		t.Fatal(err)
	}
	defer inb.Free()
	outb, err := runtime.Alloc[Out](dev, outLen)
	if err != nil {
		t.Fatal(err)
	}
	defer outb.Free()
	if err := dev.Launch(fn, runtime.LaunchConfig{}, inb, outb); err != nil {
		t.Fatal(err)
	}
	got, err := outb.ToSlice()
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// wantLookup is what lookupKernel(table) writes for the indices, by Go's
// slice indexing.
func wantLookup[T any](table []T, indices []uint32) []T {
	want := make([]T, len(indices))
	for i, x := range indices {
		want[i] = table[int(x)%len(table)]
	}
	return want
}

// TestConstTableReadsEqualGoSlice checks, on the CPU device, that a random
// constant table read at random indices gives the elements of the Go
// slice it was declared with, for tables of uint32 and of float64 (whose
// values must survive printing and reading exactly).
func TestConstTableReadsEqualGoSlice(t *testing.T) {
	cpu := runtime.CPU()
	props := gopter.NewProperties(proptest.Parameters(t, 20))
	props.Property("uint32 table", prop.ForAll(func(table, indices []uint32) bool {
		if len(table) == 0 {
			table = []uint32{7}
		}
		return slices.Equal(lookup(t, cpu, table, indices), wantLookup(table, indices))
	}, gen.SliceOf(gen.UInt32()), gen.SliceOf(gen.UInt32())))
	props.Property("float64 table", prop.ForAll(func(table []float64, indices []uint32) bool {
		if len(table) == 0 {
			table = []float64{-0.5}
		}
		got, want := lookup(t, cpu, table, indices), wantLookup(table, indices)
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				return false
			}
		}
		return len(got) == len(want)
	}, gen.SliceOf(gen.Float64()), gen.SliceOf(gen.UInt32())))
	props.TestingRun(t)
}

// TestConstTablePrinted checks the CUDA text of a constant table: a
// file-scope __constant__ array before the kernel, every element spelt
// exactly (a table with an infinity as its bits, read back as floats), and
// no parameter for it.
func TestConstTablePrinted(t *testing.T) {
	kern, err := lookupKernel([]float32{1.5, -2, float32(math.Inf(1)), float32(math.Inf(-1)), 1e-45, 3.4028235e38,
		0.1, 7, 8}).Build()
	if err != nil {
		t.Fatal(err)
	}
	src, _, err := codegen.CUDA(kern)
	if err != nil {
		t.Fatal(err)
	}
	want := "__constant__ unsigned int tab[9] = {\n  0x3fc00000u, 0xc0000000u, 0x7f800000u, 0xff800000u, 0x00000001u, " +
		"0x7f7fffffu, 0x3dcccccdu, 0x40e00000u,\n  0x41000000u,\n};\n"
	if !strings.Contains(src, want) {
		t.Errorf("the table is not printed as\n%s\nin\n%s", want, src)
	}
	if !strings.Contains(src, "__int_as_float(tab[") {
		t.Errorf("the table's bits are not read back as floats:\n%s", src)
	}
	if strings.Index(src, want) > strings.Index(src, "__global__") {
		t.Errorf("the table is printed after the kernel begins:\n%s", src)
	}
	if strings.Contains(src, "tab_len") || !strings.Contains(src, `lookup(const unsigned int* in, unsigned int in_len, float* out, unsigned int out_len)`) {
		t.Errorf("the table is a parameter of the kernel:\n%s", src)
	}
}

// TestGPUConstTable launches lookupKernel on the GPU for tables of fresh
// random uint32, float32 (with infinities) and int8 values, read at fresh
// random indices, and compares every element with the evaluator and with
// Go's slice.
func TestGPUConstTable(t *testing.T) {
	gpu := gputest.Open(t)
	cpu := runtime.CPU()
	rng := proptest.Parameters(t, 1).Rng
	indices := make([]uint32, 5000)
	for i := range indices {
		indices[i] = rng.Uint32()
	}
	u32 := make([]uint32, 1000)
	f32 := make([]float32, 333)
	i8 := make([]int8, 77)
	for i := range u32 {
		u32[i] = rng.Uint32()
	}
	for i := range f32 {
		f32[i] = float32(rng.NormFloat64() * 1e6)
	}
	f32[5], f32[6] = float32(math.Inf(1)), float32(math.Inf(-1))
	for i := range i8 {
		i8[i] = int8(rng.Intn(256) - 128)
	}
	check := func(name string, equal bool) {
		if !equal {
			t.Errorf("%s: the GPU's reads differ from Go's slice or from the evaluator", name)
		}
	}
	check("uint32", slices.Equal(lookup(t, gpu, u32, indices), wantLookup(u32, indices)) &&
		slices.Equal(lookup(t, cpu, u32, indices), wantLookup(u32, indices)))
	check("float32", slices.Equal(lookup(t, gpu, f32, indices), wantLookup(f32, indices)) &&
		slices.Equal(lookup(t, cpu, f32, indices), wantLookup(f32, indices)))
	check("int8", slices.Equal(lookup(t, gpu, i8, indices), wantLookup(i8, indices)) &&
		slices.Equal(lookup(t, cpu, i8, indices), wantLookup(i8, indices)))
}

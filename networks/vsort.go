package networks

import (
	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
)

// tau is the thesis' index permutation of vsort on 2^m elements:
//
//	tau 0 = idM
//	tau n = one rev ->- two (tau (n-1))
//
// unfolded, since two distributes over ->-: one rev, then two (one rev),
// then two (two (one rev)), ...; level j reverses the second half of
// every run of 2^(m-j) elements. Each level is an index map that uses its
// index twice, so tau n costs an index expression of about 2^n nodes (the
// thesis' recursion grew faster, until vsortIt 5 no longer compiled; here
// any length up to MaxBatch builds).
func tau[T dsl.Scalar](n int, a Pull[T]) Pull[T] {
	size, _ := a.ConstLen()
	for j := range n {
		a = reverseSecondHalves(size>>j, a)
	}
	return a
}

// reverseSecondHalves reverses the second half of every run of run
// elements (a power of two, at least 2): two^j (one rev), by flipping the
// low bits of the indices whose half bit is set.
func reverseSecondHalves[T dsl.Scalar](run uint32, a Pull[T]) Pull[T] {
	half := dsl.N(run / 2)
	low := dsl.N(run/2 - 1)
	return arrays.IxMap(func(i dsl.U32) dsl.U32 {
		return i.Xor(dsl.Select(i.And(half).Ne(dsl.N(0)), low, dsl.N(0)))
	}, a)
}

// oneRev is one rev on an even length: the second half reversed.
func oneRev[T dsl.Scalar](a Pull[T]) Pull[T] {
	h := a.Len().Shr(dsl.N(1))
	return arrays.IxMap(func(i dsl.U32) dsl.U32 {
		return dsl.Select(i.Lt(h), i, h.Mul(dsl.N(3)).Sub(dsl.N(1)).Sub(i))
	}, a)
}

// VSortIt is the thesis' iterative vsort of 2^m elements in a block:
//
//	vmergeIt n = tau (n-1) ->- sync ->- bmergeIt n   -- bmergeIt n = shex cmpSwap n
//	vsortIt n = rep n (vmergeIt n)
//
// (Shex computes its input first: that is the sync after tau.) A length
// that is not a constant power of two is an error at the caller's line.
func VSortIt[T dsl.Number](b *dsl.Block, a Pull[T]) Pull[T] {
	m, ok := log2(a)
	if !ok {
		return invalid(b, a, "VSortIt of an array whose length is not a constant power of two")
	}
	vmergeIt := func(b *dsl.Block, a Pull[T]) Pull[T] { return arrays.Shex(b, m, CmpSwap, tau(m-1, a)) }
	return arrays.Rep(b, m, vmergeIt, a)
}

// VSortItTab is VSortIt with the permutations looked up in tables (the
// thesis' vsortItTab, as its vsortIt2, with the sync after each lookup):
//
//	shexT f n = rep n (tblLook rifftab ->- sync ->- evens f ->- sync)
//	vmergeItTab n = tblLook tautab ->- sync ->- shexT cmpSwap n
//	vsortItTab n = rep n (vmergeItTab n)
//
// riffleTab and tauTab are RiffleTable(len) and TauTable(len), best held
// in constant memory as the kernel's constant tables, as the thesis'
// executeTab holds them (Kernel's VSortTables does: TblLook then reads
// arrays.FromArray(dsl.ConstTable(k, "riffleTable", RiffleTable(n)))); any
// other Pull array of the same elements works too.
func VSortItTab[T dsl.Number](b *dsl.Block, riffleTab, tauTab Pull[uint32], a Pull[T]) Pull[T] {
	m, ok := log2(a)
	if !ok {
		return invalid(b, a, "VSortItTab of an array whose length is not a constant power of two")
	}
	shexT := func(b *dsl.Block, a Pull[T]) Pull[T] {
		return arrays.Rep(b, m, func(b *dsl.Block, a Pull[T]) Pull[T] {
			return arrays.Evens(CmpSwap, arrays.Compute(b, arrays.TblLook(riffleTab, a)))
		}, a)
	}
	vmergeItTab := func(b *dsl.Block, a Pull[T]) Pull[T] { return shexT(b, arrays.TblLook(tauTab, a)) }
	return arrays.Rep(b, m, vmergeItTab, a)
}

// VSortParam is the thesis' parametric vsort of a power-of-two length,
// whose round counts are computed in the kernel from the length:
//
//	tauDowd' = unriffle ->- sync ->- one rev
//	pdmergeIt = tauDowd' ->- sync ->- pshex cmpSwap
//	pvsortIt arr = let n = log2i (len arr) in repE n pdmergeIt arr
func VSortParam[T dsl.Number](b *dsl.Block, a Pull[T]) Pull[T] {
	if _, ok := log2(a); !ok {
		return invalid(b, a, "VSortParam of an array whose length is not a constant power of two")
	}
	n := dsl.N(31).Sub(a.Len().LeadingZeros())
	tauDowd := func(b *dsl.Block, a Pull[T]) Pull[T] { return oneRev(arrays.Compute(b, arrays.Unriffle(a))) }
	pdmergeIt := func(b *dsl.Block, a Pull[T]) Pull[T] { return arrays.ShexE(b, n, CmpSwap, tauDowd(b, a)) }
	return arrays.RepE(b, n, pdmergeIt, a)
}

// RiffleTable returns the riffle of n elements as a table for TblLook:
// entry i is the index Riffle reads for element i.
func RiffleTable(n int) []uint32 {
	t := make([]uint32, n)
	h := (n + 1) / 2
	for i := range t {
		t[i] = uint32(i/2 + i%2*h)
	}
	return t
}

// TauTable returns tau (m-1) on 2^m = n elements (n a power of two) as a
// table for TblLook: entry i is the index tau reads for element i.
func TauTable(n int) []uint32 {
	t := make([]uint32, n)
	for i := range t {
		j := i
		// one rev at every size from 4 up to n: as index functions, the
		// innermost two's map applies first.
		for size := 4; size <= n; size *= 2 {
			if h := size / 2; j%size >= h {
				j = j - j%size + h + (size - 1 - j%size)
			}
		}
		t[i] = uint32(j)
	}
	return t
}

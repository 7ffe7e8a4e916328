package kernels

import (
	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
)

// The H-P integer sorts of Kozakai, Fujimoto and Wada ("Efficient
// GPU-Implementation for Integer Sorting Based on Histogram and
// Prefix-Sums"). With x the n keys, lo the range's first value and
// A the histogram of x - lo (the library's histogram), Ap its inclusive
// prefix sums (the library's scan), their Algorithm 2 is
//
//	B = Histogram(Ap, n)     // HPSumsHistogramKernel
//	y = Prefix-Sums(B)       // the sorted keys
//
// since y[i] = lo + #{v : Ap[v] <= i}: the number of values whose keys all
// come before position i. 1-H-P (Algorithm 3, distinct keys) writes value
// v at position Ap[v-1] wherever Ap steps (HPDistinctKernel); 0-compressed
// H-P (Algorithm 5, few distinct keys) builds B from the len values that
// occur instead of from all of Ap (HPBinarizeKernel, HPCompressKernel,
// HPExpandKernel).

// hpThreads is the block size of the H-P kernels.
const hpThreads = 256

// noSum is the value of a lane past the end of the prefix sums: no sum is
// 2^32-1, as there are fewer keys.
const noSum = ^uint32(0)

// HPSumsHistogramKernel returns line 3 of the H-P algorithm: the histogram
// B (out, n cells, zeroed by the host) of the prefix sums Ap (sums) of the
// keys' histogram, with B[0] starting at lo so that the prefix sums of B
// are the sorted keys themselves rather than their bins. The sums are
// sorted, so the lanes of a warp with equal sums are neighbours: they
// combine their counts (arrays.WarpAggregateRuns) and one lane per run
// adds it. A sum of n (the values past the largest key) falls outside B
// and is not counted, as in the paper, which drops B[n].
func HPSumsHistogramKernel() *dsl.Kernel {
	k := dsl.NewKernel("hpSumsHistogram", hpThreads)
	sums := dsl.Input[uint32](k, "sums")
	lo := dsl.Param[uint32](k, "lo")
	out := dsl.Output[uint32](k, "out")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.CeilDiv(sums.Len(), dsl.N(hpThreads)), func(b *dsl.Block, blk dsl.U32) {
			// Every thread of the block runs the shuffles, a value or not.
			b.ForAll(dsl.N(hpThreads), func(t *dsl.Thread, tid dsl.U32) {
				v := dsl.Let(t, blk.Mul(dsl.N(hpThreads)).Add(tid))
				sum := dsl.Let(t, dsl.Select(v.Lt(sums.Len()), sums.At(v.Exp), dsl.N(noSum)))
				leader, count := arrays.WarpAggregateRuns(t, dsl.U32.Add, sum.Exp, dsl.N(1), dsl.N(ir.WarpSize))
				t.If(leader.And(sum.Lt(out.Len())), func(t *dsl.Thread) {
					out.Atomic(t, dsl.AtomicAdd, sum.Exp, count)
				})
				t.If(v.Eq(dsl.N(0)).And(out.Len().Gt(dsl.N(0))), func(t *dsl.Thread) {
					out.Atomic(t, dsl.AtomicAdd, dsl.N(0), lo)
				})
			})
		})
	})
	return k
}

// HPDistinctKernel returns lines 3 to 5 of the 1-H-P algorithm (the
// paper's figure 4): from the prefix sums Ap (sums) of the histogram of
// distinct keys, the value v whose sum steps (Ap[v] != Ap[v-1], with
// Ap[-1] = 0) is the Ap[v-1]-th smallest key, written to out as lo+v. A
// step of more than one is a repeated key: it sets dup[0] to 1, which the
// host reports, and writes nothing.
func HPDistinctKernel() *dsl.Kernel {
	k := dsl.NewKernel("hpDistinct", hpThreads)
	sums := dsl.Input[uint32](k, "sums")
	lo := dsl.Param[uint32](k, "lo")
	out := dsl.Output[uint32](k, "out")
	dup := dsl.Output[uint32](k, "dup")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(sums.Len(), func(t *dsl.Thread, v dsl.U32) {
			before := dsl.Let(t, dsl.Select(v.Eq(dsl.N(0)), dsl.N(0), sums.At(v.Sub(dsl.N(1)))))
			step := dsl.Let(t, sums.At(v).Sub(before.Exp))
			t.If(step.Eq(dsl.N(1)), func(t *dsl.Thread) { out.Store(t, before.Exp, lo.Add(v)) })
			t.If(step.Gt(dsl.N(1)), func(t *dsl.Thread) { dup.StoreSame(t, dsl.N(0), dsl.N(1)) })
		})
	})
	return k
}

// HPBinarizeKernel returns lines 2 and 3 of the 0-compressed H-P algorithm
// (the paper's figure 5): A01[i] = 1 where the histogram A has keys, 0
// elsewhere.
func HPBinarizeKernel() *dsl.Kernel {
	k := dsl.NewKernel("hpBinarize", hpThreads)
	hist := dsl.Input[uint32](k, "hist")
	ones := dsl.Output[uint32](k, "ones")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(hist.Len(), func(t *dsl.Thread, i dsl.U32) {
			ones.Store(t, i, dsl.Select(hist.At(i).Gt(dsl.N(0)), dsl.N(1), dsl.N(0)))
		})
	})
	return k
}

// HPCompressKernel returns lines 8 to 14 of the 0-compressed H-P algorithm
// (the paper's figure 6): every value i with keys (A[i] > 0) is the
// A01p[i]-th value that occurs (A01p the inclusive prefix sums of A01), so
// C[A01p[i]] = A[i] and iC[A01p[i]] = i; C[0] = iC[0] = 0.
func HPCompressKernel() *dsl.Kernel {
	k := dsl.NewKernel("hpCompress", hpThreads)
	hist := dsl.Input[uint32](k, "hist")
	ranks := dsl.Input[uint32](k, "ranks")
	counts := dsl.Output[uint32](k, "counts")
	values := dsl.Output[uint32](k, "values")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(hist.Len(), func(t *dsl.Thread, i dsl.U32) {
			c := dsl.Let(t, hist.At(i))
			t.If(c.Gt(dsl.N(0)), func(t *dsl.Thread) {
				x := dsl.Let(t, ranks.At(i))
				counts.Store(t, x.Exp, c.Exp)
				values.Store(t, x.Exp, i)
			})
			t.If(i.Eq(dsl.N(0)), func(t *dsl.Thread) {
				counts.Store(t, dsl.N(0), dsl.N(0))
				values.Store(t, dsl.N(0), dsl.N(0))
			})
		})
	})
	return k
}

// HPExpandKernel returns lines 16 and 17 of the 0-compressed H-P algorithm
// (the paper's figure 7): with Cp the inclusive prefix sums of C (starts,
// len+1 of them) and iC the values that occur (values), the histogram B of
// Ap is iC[j+1] - iC[j] at Cp[j] for j < len, and 0 elsewhere (out, n
// cells, zeroed by the host). B[0] is lo + iC[1], so that the prefix sums
// of B are the sorted keys.
func HPExpandKernel() *dsl.Kernel {
	k := dsl.NewKernel("hpExpand", hpThreads)
	starts := dsl.Input[uint32](k, "starts")
	values := dsl.Input[uint32](k, "values")
	lo := dsl.Param[uint32](k, "lo")
	out := dsl.Output[uint32](k, "out")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(starts.Len().Max(dsl.N(1)).Sub(dsl.N(1)), func(t *dsl.Thread, j dsl.U32) {
			step := dsl.Let(t, values.At(j.Add(dsl.N(1))).Sub(values.At(j)))
			t.IfElse(j.Eq(dsl.N(0)),
				func(t *dsl.Thread) { out.Store(t, dsl.N(0), lo.Add(step.Exp)) },
				func(t *dsl.Thread) { out.Store(t, starts.At(j), step.Exp) })
		})
	})
	return k
}

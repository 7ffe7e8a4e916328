package main

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"text/tabwriter"
)

// comparison pairs one of our methods with the baseline method it must
// beat.
type comparison struct {
	ours, theirs string
}

// comparisonsOf returns, in the order of ourMethods, the comparisons of
// ourMethods whose method and rival both have rows at n.
func comparisonsOf(rows []row, n int) []comparison {
	var cs []comparison
	for _, m := range ourMethods {
		has := func(method string) bool {
			return slices.ContainsFunc(rows, func(r row) bool { return r.n == n && r.method == method })
		}
		c := comparison{m.label(), m.rival()}
		if has(m.label()) && has(m.rival()) && !slices.Contains(cs, c) {
			cs = append(cs, c)
		}
	}
	return cs
}

// ratioOf returns ours / theirs of c's medians for n and dist, and false
// when either is missing (or theirs is 0).
func ratioOf(rows []row, n int, dist string, c comparison) (float64, bool) {
	ours, okOurs := lookup(rows, n, dist, c.ours)
	theirs, okTheirs := lookup(rows, n, dist, c.theirs)
	if !okOurs || !okTheirs || theirs.medianMS <= 0 {
		return 0, false
	}
	return ours.medianMS / theirs.medianMS, true
}

// slowerMark follows a ratio above 1: ours is slower than CUB there.
const slowerMark = " ▲"

// missing stands for a measurement a table or chart does not have.
const missing = "–"

// table returns, as Markdown, a section per n: every method's medians per
// distribution, then the ratios of ours to CUB, bold and marked where
// ours is slower.
func table(rows []row) (string, error) {
	sizes := sizesOf(rows)
	if len(sizes) == 0 {
		return "", errors.New("no measurements to tabulate")
	}
	var b strings.Builder
	b.WriteString("# Sorting on one GPU: our methods beside CUB and Thrust\n")
	for _, n := range sizes {
		dists := namesOf(rows, n, rowDist, distOrder())
		methods := namesOf(rows, n, rowMethod, methodOrder)
		fmt.Fprintf(&b, "\n## %s keys\n\nMedian milliseconds of %s.\n\n| keys | type | %s |\n|---|---|%s\n",
			sizeName(n), runsOf(rows, n), strings.Join(methods, " | "), strings.Repeat("---:|", len(methods)))
		for _, dist := range dists {
			fmt.Fprintf(&b, "| %s | %s |", dist, keyTypeOf(dist))
			for _, m := range methods {
				r, ok := lookup(rows, n, dist, m)
				fmt.Fprintf(&b, " %s |", millis(r, ok))
			}
			b.WriteString("\n")
		}
		cs := comparisonsOf(rows, n)
		if len(cs) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\nOurs / CUB, medians: below 1 when ours is faster; **bold**%s where ours is slower.\n\n| keys |", slowerMark)
		for _, c := range cs {
			fmt.Fprintf(&b, " %s / %s |", c.ours, c.theirs)
		}
		b.WriteString("\n|---|" + strings.Repeat("---:|", len(cs)) + "\n")
		for _, dist := range dists {
			fmt.Fprintf(&b, "| %s |", dist)
			for _, c := range cs {
				fmt.Fprintf(&b, " %s |", ratioCell(rows, n, dist, c, "**%.2f**"+slowerMark))
			}
			b.WriteString("\n")
		}
	}
	return b.String(), nil
}

// ratioCell formats the ratio of c at n and dist: with slower, a format
// for one value, where ours is slower; missing where there is none.
func ratioCell(rows []row, n int, dist string, c comparison, slower string) string {
	q, ok := ratioOf(rows, n, dist, c)
	switch {
	case !ok:
		return missing
	case q > 1:
		return fmt.Sprintf(slower, q)
	default:
		return fmt.Sprintf("%.2f", q)
	}
}

// ratioGrid returns the summary printed on standard output: per
// comparison, its ratio for every distribution (rows) and n (columns),
// marked where ours is slower.
func ratioGrid(rows []row) string {
	sizes := sizesOf(rows)
	var all []comparison
	for _, n := range sizes {
		for _, c := range comparisonsOf(rows, n) {
			if !slices.Contains(all, c) {
				all = append(all, c)
			}
		}
	}
	var dists []string
	for _, r := range rows {
		if !slices.Contains(dists, r.dist) {
			dists = append(dists, r.dist)
		}
	}
	slices.SortFunc(dists, byOrder(distOrder()))
	var b strings.Builder
	if len(all) == 0 {
		b.WriteString("no ratios: no method of ours has its rival's rows\n")
	}
	for _, c := range all {
		fmt.Fprintf(&b, "%s / %s (below 1: ours faster;%s ours slower)\n", c.ours, c.theirs, slowerMark)
		w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprint(w, "keys\t")
		for _, n := range sizes {
			fmt.Fprintf(w, "%s\t", sizeName(n))
		}
		fmt.Fprintln(w)
		for _, dist := range dists {
			fmt.Fprintf(w, "%s\t", dist)
			for _, n := range sizes {
				fmt.Fprintf(w, "%s\t", ratioCell(rows, n, dist, c, "%.2f"+slowerMark))
			}
			fmt.Fprintln(w)
		}
		w.Flush()
		b.WriteString("\n")
	}
	return b.String()
}

// keyTypeOf returns the key type of the distribution called dist, or
// missing for one the benchmark does not know.
func keyTypeOf(dist string) string {
	d, err := distributionNamed(dist)
	if err != nil {
		return missing
	}
	return d.keyType()
}

// millis formats a row's median, or missing.
func millis(r row, ok bool) string {
	if !ok {
		return missing
	}
	return fmt.Sprintf("%.3f", r.medianMS)
}

// sizeName writes n as 2^k when it is a power of two, else in decimal.
func sizeName(n int) string {
	if n > 0 && n&(n-1) == 0 {
		return fmt.Sprintf("2^%d", bits.TrailingZeros(uint(n)))
	}
	return fmt.Sprint(n)
}

// runsOf says how many timed runs the medians of n are of.
func runsOf(rows []row, n int) string {
	var runs []int
	for _, r := range rows {
		if r.n == n {
			runs = append(runs, r.runs)
		}
	}
	slices.Sort(runs)
	runs = slices.Compact(runs)
	if len(runs) == 1 {
		return fmt.Sprintf("%d runs", runs[0])
	}
	return fmt.Sprintf("%d to %d runs", runs[0], runs[len(runs)-1])
}

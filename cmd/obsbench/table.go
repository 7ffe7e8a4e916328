package main

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strings"
)

// comparison pairs one of our methods with the CUB method it must beat.
type comparison struct {
	ours, theirs string
}

// comparisons are the columns of the table: counting sort against the
// radix sort told the keys' bits, occurrence sort against radix sort then
// unique.
var comparisons = []comparison{{obsCounting, cubRadixBits}, {obsOccurrence, cubSortUnique}}

// table returns, as Markdown, the largest n's comparison of our sorts with
// CUB's: one row per distribution with both medians and ours / CUB.
func table(rows []row) (string, error) {
	sizes := sizesOf(rows)
	if len(sizes) == 0 {
		return "", errors.New("no measurements to tabulate")
	}
	n := sizes[len(sizes)-1]
	var b strings.Builder
	fmt.Fprintf(&b, "Sorting %s uint32 keys on one GPU: median milliseconds of %s; ratio = ours / CUB, below 1 when ours is faster.\n\n",
		sizeName(n), runsOf(rows, n))
	b.WriteString("| keys |")
	for _, c := range comparisons {
		fmt.Fprintf(&b, " %s (ms) | %s (ms) | ratio |", c.ours, c.theirs)
	}
	b.WriteString("\n|---|" + strings.Repeat("---:|", 3*len(comparisons)) + "\n")
	for _, dist := range namesOf(rows, n, rowDist, distOrder()) {
		fmt.Fprintf(&b, "| %s |", dist)
		for _, c := range comparisons {
			ours, okOurs := lookup(rows, n, dist, c.ours)
			theirs, okTheirs := lookup(rows, n, dist, c.theirs)
			fmt.Fprintf(&b, " %s | %s | %s |", millis(ours, okOurs), millis(theirs, okTheirs), ratio(ours, okOurs, theirs, okTheirs))
		}
		b.WriteString("\n")
	}
	scanTable(&b, rows, n)
	return b.String(), nil
}

// scanTable writes, when n has scan rows, the comparison of our exclusive
// scan with CUB's and with the copy of the keys, the floor of anything
// that reads and writes every key.
func scanTable(b *strings.Builder, rows []row, n int) {
	dists := namesOf(rows, n, rowDist, distOrder())
	has := slices.ContainsFunc(rows, func(r row) bool { return r.n == n && (r.method == obsScan || r.method == cubScan) })
	if !has {
		return
	}
	fmt.Fprintf(b, "\nExclusive scan (uint32 sums, modulo 2^32) of %s keys: median milliseconds; ratio = ours / CUB; "+
		"memcpy copies the keys (the floor).\n\n", sizeName(n))
	fmt.Fprintf(b, "| keys | %s (ms) | %s (ms) | ratio | %s (ms) |\n|---|---:|---:|---:|---:|\n", obsScan, cubScan, memcpyMethod)
	for _, dist := range dists {
		ours, okOurs := lookup(rows, n, dist, obsScan)
		theirs, okTheirs := lookup(rows, n, dist, cubScan)
		floor, okFloor := lookup(rows, n, dist, memcpyMethod)
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s |\n", dist, millis(ours, okOurs), millis(theirs, okTheirs),
			ratio(ours, okOurs, theirs, okTheirs), millis(floor, okFloor))
	}
}

// missing stands for a measurement a table or chart does not have.
const missing = "–"

// millis formats a row's median, or missing.
func millis(r row, ok bool) string {
	if !ok {
		return missing
	}
	return fmt.Sprintf("%.3f", r.medianMS)
}

// ratio formats ours / theirs of the medians, or missing.
func ratio(ours row, okOurs bool, theirs row, okTheirs bool) string {
	if !okOurs || !okTheirs || theirs.medianMS <= 0 {
		return missing
	}
	return fmt.Sprintf("%.2f", ours.medianMS/theirs.medianMS)
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

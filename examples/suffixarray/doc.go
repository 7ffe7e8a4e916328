// Suffixarray builds the suffix array of a text by prefix doubling, with
// the count sort of Sun and Ma ("Count Sort for GPU Computing"), which the
// paper names as a building block of suffix array construction: the
// positions of the text are sorted by their ranks.
//
// Round k sorts the suffixes by their first 2k characters: every position
// i gets the key (rank[i], rank[i+k]) of the ranks of round k/2 (the ranks
// of the characters at first), as one number rank[i]*(r+1) + rank[i+k]+1
// (0 past the end) for r ranks, and sorts.Sorter.CountSortPairs sorts the
// positions by it on the device. Equal keys are suffixes that round k does
// not tell apart, so the count sort's instability does no harm: the new
// rank of a position is the number of distinct keys before its own. The
// rounds stop when every rank is distinct.
//
// The keys of the last rounds span r(r+1) values, which must stay within
// sorts.MaxBins: texts of up to MaxText bytes. (A longer text wants its
// pairs sorted by a stable sort, one rank at a time.)
//
// Usage:
//
//	go run ./examples/suffixarray [-gpu] [text...]
//
// prints the suffix array of the arguments, joined by spaces (or of the
// standard input when there are none), built on the CPU evaluator, or on
// GPU 0 with -gpu.
package main

package main

import (
	"errors"
	"fmt"

	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
)

// MaxText is the longest text SuffixArray takes: its ranks r stay below
// 2^15, so that the keys' r(r+1) values fit in sorts.MaxBins.
const MaxText = 1<<15 - 1

// SuffixArray returns the start of every suffix of text, in the suffixes'
// lexicographic order, sorting on the Sorter's device dev.
func SuffixArray(s *sorts.Sorter, dev runtime.Device, text []byte) (sa []uint32, err error) {
	n := len(text)
	if n > MaxText {
		return nil, fmt.Errorf("suffixarray: a text of %d bytes, more than MaxText (%d)", n, MaxText)
	}
	if n == 0 {
		return []uint32{}, nil
	}
	rank := make([]uint32, n)
	positions := make([]uint32, n)
	for i, c := range text {
		rank[i], positions[i] = uint32(c), uint32(i)
	}
	var bufs [4]*runtime.Buffer[uint32] // keys, positions, sorted keys, sorted positions
	defer func() {
		for _, b := range bufs {
			if b != nil {
				err = errors.Join(err, b.Free())
			}
		}
	}()
	for i := range bufs {
		if bufs[i], err = runtime.FromSlice(dev, positions); err != nil {
			return nil, err
		}
	}
	keys, vals, sortedKeys, sortedVals := bufs[0], bufs[1], bufs[2], bufs[3]
	key := make([]uint32, n)
	for k, ranks := 1, uint32(256); ; k *= 2 {
		for i := range key {
			next := uint32(0)
			if i+k < n {
				next = rank[i+k] + 1
			}
			key[i] = rank[i]*(ranks+1) + next
		}
		if err := keys.CopyFrom(key); err != nil {
			return nil, err
		}
		if err := s.CountSortPairs(sortedKeys, sortedVals, keys, vals, 0, ranks*(ranks+1)); err != nil {
			return nil, err
		}
		byKey, err := sortedKeys.ToSlice()
		if err != nil {
			return nil, err
		}
		if sa, err = sortedVals.ToSlice(); err != nil {
			return nil, err
		}
		ranks = rerank(rank, byKey, sa)
		if int(ranks) == n || k >= n {
			return sa, nil
		}
	}
}

// rerank gives every position of sa (sorted by their keys byKey) the
// number of distinct keys before its own as its rank, and returns the
// number of ranks.
func rerank(rank, byKey, sa []uint32) uint32 {
	r := uint32(0)
	for j, p := range sa {
		if j > 0 && byKey[j] != byKey[j-1] {
			r++
		}
		rank[p] = r
	}
	return r + 1
}

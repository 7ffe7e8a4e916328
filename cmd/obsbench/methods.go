package main

import (
	"errors"
	"github.com/obsidian-go/obsidian/networks"
	"io"
	"reflect"
	"slices"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/scan"
	"github.com/obsidian-go/obsidian/sorts"
)

// method is one of the library's sorts or scans as the benchmark runs it:
// a *sortMethod[K] for keys of type K.
type method interface {
	// label is the method's name in the CSV and the charts.
	label() string
	// rival is the baseline method its time is divided by in the ratio
	// tables and charts.
	rival() string
}

// sortMethod is a method on keys of type K: one entry of ourMethods.
type sortMethod[K key] struct {
	name string
	// against is the baseline method it is compared with.
	against string
	// accepts reports whether it can sort keys of the span; nil accepts
	// every distribution of K. Float distributions have no span and are
	// accepted only by a nil accepts.
	accepts func(s span) bool
	// distinct says that it sorts only keys that are all distinct.
	distinct bool
	// values says that it reads call.values (0, 1, ..., n-1) and writes
	// call.valuesOut: a sort of pairs or an argsort.
	values bool
	// run sorts (or scans) c.keys into c.out (and c.valuesOut) and returns
	// how many elements at the front of the outputs hold the result.
	run func(b *bench, c *call[K]) (int, error)
	// check compares the result of the first run with the reference.
	check func(c *call[K], count int, ref *reference[K]) error
}

// label implements method.
func (m *sortMethod[K]) label() string { return m.name }

// rival implements method.
func (m *sortMethod[K]) rival() string { return m.against }

// takes reports whether m sorts the keys of a distribution with span s
// (ok false: a distribution without one).
func (m *sortMethod[K]) takes(s span, ok bool) bool {
	return m.accepts == nil || ok && m.accepts(s)
}

// call is what a method runs on: the keys on the device, its outputs and
// the keys' declared range.
type call[K key] struct {
	keys, out *runtime.Buffer[K]
	// values holds 0, 1, ..., n-1 and valuesOut receives them permuted,
	// for methods with values set; nil otherwise.
	values, valuesOut *runtime.Buffer[uint32]
	span              span
}

// countingRange reports whether the counting sorts take keys of span s:
// at most sorts.MaxBins values, and an end max+1 that is a uint32.
func countingRange(s span) bool {
	return s.max < 1<<32-1 && s.width() <= sorts.MaxBins
}

// countingMethod returns the method name that sorts uint32 keys by sort
// told their range [lo, max+1), compared with CUB's radix sort told the
// range's bits.
func countingMethod(name string, sort func(s *sorts.Sorter, out, keys *runtime.Buffer[uint32], lo, hi uint32) error) *sortMethod[uint32] {
	return &sortMethod[uint32]{
		name:    name,
		against: cubRadixBits,
		accepts: countingRange,
		run: func(b *bench, c *call[uint32]) (int, error) {
			s, err := use(b, openSorter)
			if err != nil {
				return 0, err
			}
			lo, hi := rangeOf(c)
			return c.keys.Len(), sort(s, c.out, c.keys, lo, hi)
		},
		check: checkSorted[uint32],
	}
}

// rangeOf returns the half-open range [lo, hi) the counting sorts are
// told.
func rangeOf(c *call[uint32]) (lo, hi uint32) {
	return uint32(c.span.lo), uint32(c.span.max + 1)
}

// ourMethods are the library's methods the benchmark times. A new sort is
// one entry: its name, its rival, which keys it takes, how to run it
// (opening what it needs with use) and how its result is checked.
var ourMethods = append([]method{
	countingMethod(obsCounting, (*sorts.Sorter).CountingSort),
	// A key out of range would be missing from the output, which the check
	// compares with the sorted keys.
	countingMethod(obsCountingEnqueued, (*sorts.Sorter).EnqueueCountingSort),
	&sortMethod[uint32]{
		name:    obsOccurrence,
		against: cubSortUnique,
		accepts: countingRange,
		run: func(b *bench, c *call[uint32]) (int, error) {
			s, err := use(b, openSorter)
			if err != nil {
				return 0, err
			}
			lo, hi := rangeOf(c)
			return s.OccurrenceSort(c.out, c.keys, lo, hi)
		},
		check: checkDistinct[uint32],
	},
	&sortMethod[uint32]{
		name:    obsCountingPaper,
		against: cubRadixBits,
		accepts: countingRange,
		run: func(b *bench, c *call[uint32]) (int, error) {
			s, err := use(b, openSorter)
			if err != nil {
				return 0, err
			}
			lo, hi := rangeOf(c)
			return c.keys.Len(), s.PaperCountingSort(c.out, c.keys, lo, hi)
		},
		check: checkSorted[uint32],
	},
	&sortMethod[uint32]{
		name:    obsOccurrencePaper,
		against: cubSortUnique,
		accepts: countingRange,
		run: func(b *bench, c *call[uint32]) (int, error) {
			s, err := use(b, openSorter)
			if err != nil {
				return 0, err
			}
			lo, hi := rangeOf(c)
			return s.PaperOccurrenceSort(c.out, c.keys, lo, hi)
		},
		check: checkDistinct[uint32],
	},
	&sortMethod[uint32]{
		name:    obsScan,
		against: cubScan,
		run: func(b *bench, c *call[uint32]) (int, error) {
			s, err := use(b, openScan)
			if err != nil {
				return 0, err
			}
			return c.keys.Len(), s.Run(c.keys, c.out)
		},
		check: checkScan,
	},
}, append(moreMethods, networkMethods()...)...)

// radixVariant is a way radixMethod sorts: keys alone or pairs, in
// ascending or descending order.
type radixVariant struct {
	pairs, descending bool
}

// radixVariants are the names of each radixVariant's method and rival.
var radixVariants = map[radixVariant]struct {
	name, against string
}{
	{false, false}: {obsRadixFull, cubRadixFull},
	{true, false}:  {obsPairsFull, cubPairsFull},
	{false, true}:  {obsRadixDesc, cubRadixDesc},
	{true, true}:   {obsPairsDesc, cubPairsDesc},
}

// radixMethod returns the radix sort of keys of K over all their bits, of
// pairs with uint32 values when v.pairs is set, largest first when
// v.descending is, compared with CUB's sort of the same.
func radixMethod[K key](v radixVariant) *sortMethod[K] {
	names := radixVariants[v]
	var opts []sorts.RadixOption
	check := checkSorted[K]
	if v.pairs {
		check = checkPairs[K]
	}
	if v.descending {
		opts = append(opts, sorts.Descending())
		check = checkDescending[K]
		if v.pairs {
			check = checkPairsDescending[K]
		}
	}
	return &sortMethod[K]{name: names.name, against: names.against, check: check, values: v.pairs,
		run: func(b *bench, c *call[K]) (int, error) {
			s, err := use(b, openSorter)
			if err != nil {
				return 0, err
			}
			if v.pairs {
				return c.keys.Len(), sorts.SortPairs(s, c.out, c.valuesOut, c.keys, c.values, opts...)
			}
			return c.keys.Len(), sorts.RadixSort(s, c.out, c.keys, opts...)
		}}
}

// rangeMethod returns a method on uint32 keys told the keys' range, run by
// sort on the Sorter, compared with CUB's radix sort told the range's bits.
func rangeMethod(name string, accepts func(span) bool, sort func(s *sorts.Sorter, c *call[uint32]) error) *sortMethod[uint32] {
	return &sortMethod[uint32]{
		name:    name,
		against: cubRadixBits,
		accepts: accepts,
		run: func(b *bench, c *call[uint32]) (int, error) {
			s, err := use(b, openSorter)
			if err != nil {
				return 0, err
			}
			return c.keys.Len(), sort(s, c)
		},
		check: checkSorted[uint32],
	}
}

// distinctOnly returns m, taking only distributions of distinct keys.
func distinctOnly[K key](m *sortMethod[K]) *sortMethod[K] {
	m.distinct = true
	return m
}

// anySpan accepts the keys of every distribution that has a span.
func anySpan(span) bool { return true }

// moreMethods are the sorts beyond the paper's: the cost model's pick, the
// radix sort of every key type and of pairs, and the other papers' sorts.
var moreMethods = []method{
	rangeMethod(obsSort, anySpan, func(s *sorts.Sorter, c *call[uint32]) error {
		return s.SortKeys(c.out, c.keys, uint32(c.span.lo), uint32(c.span.max))
	}),
	rangeMethod(obsRadixBits, anySpan, func(s *sorts.Sorter, c *call[uint32]) error {
		return sorts.RadixSort(s, c.out, c.keys, sorts.Bits(0, c.span.bits()))
	}),
	radixMethod[uint32](radixVariant{}), radixMethod[uint64](radixVariant{}), radixMethod[float32](radixVariant{}),
	radixMethod[uint32](radixVariant{pairs: true}), radixMethod[uint64](radixVariant{pairs: true}),
	radixMethod[uint32](radixVariant{descending: true}), radixMethod[uint64](radixVariant{descending: true}),
	radixMethod[float32](radixVariant{descending: true}), radixMethod[uint32](radixVariant{pairs: true, descending: true}),
	radixMethod[uint64](radixVariant{pairs: true, descending: true}),
	&sortMethod[uint32]{
		name:    obsPairsBits,
		against: cubPairsBits,
		accepts: anySpan,
		values:  true,
		run: func(b *bench, c *call[uint32]) (int, error) {
			s, err := use(b, openSorter)
			if err != nil {
				return 0, err
			}
			return c.keys.Len(), sorts.SortPairs(s, c.out, c.valuesOut, c.keys, c.values, sorts.Bits(0, c.span.bits()))
		},
		check: checkPairs[uint32],
	},
	rangeMethod(obsHP, countingRange, func(s *sorts.Sorter, c *call[uint32]) error {
		lo, hi := rangeOf(c)
		return s.HPSort(c.out, c.keys, lo, hi)
	}),
	distinctOnly(rangeMethod(obsHPDistinct, countingRange, func(s *sorts.Sorter, c *call[uint32]) error {
		lo, hi := rangeOf(c)
		return s.HPSortDistinct(c.out, c.keys, lo, hi)
	})),
	rangeMethod(obsHPFew, countingRange, func(s *sorts.Sorter, c *call[uint32]) error {
		lo, hi := rangeOf(c)
		return s.HPSortFew(c.out, c.keys, lo, hi)
	}),
	rangeMethod(obsNotesRadix, anySpan, func(s *sorts.Sorter, c *call[uint32]) error {
		return s.NotesRadixSort(c.out, c.keys, 4)
	}),
	&sortMethod[uint32]{
		name:    obsCountPairs,
		against: cubPairsBits,
		accepts: countingRange,
		values:  true,
		run: func(b *bench, c *call[uint32]) (int, error) {
			s, err := use(b, openSorter)
			if err != nil {
				return 0, err
			}
			lo, hi := rangeOf(c)
			return c.keys.Len(), s.CountSortPairs(c.out, c.valuesOut, c.keys, c.values, lo, hi)
		},
		check: checkUnstablePairs,
	},
}

// networkBatch is the batch the sorting networks sort: the keys sort in
// independent runs of networkBatch, one block each (fewer keys in one
// batch of the power of two that holds them).
const networkBatch = 1024

// batchFor returns the batch the networks sort n keys in.
func batchFor(n int) int {
	batch := 1
	for batch < min(n, networkBatch) {
		batch *= 2
	}
	return batch
}

// networkKey names a sorting network's Sorter: its algorithm and batch.
type networkKey struct {
	alg   networks.Algorithm
	batch int
}

// networkSorters are the sorting networks' Sorters of one bench, loaded on
// first use.
type networkSorters map[networkKey]*networks.Sorter

// Close implements io.Closer: it closes every Sorter.
func (ns networkSorters) Close() error {
	var errs []error
	for _, s := range ns {
		errs = append(errs, s.Close())
	}
	return errors.Join(errs...)
}

// networkMethod returns the sort of every batch of networkBatch keys by
// alg, compared with CUB's sort of all the keys told their bits (a
// different job: the networks' batches are independent).
func networkMethod(alg networks.Algorithm) *sortMethod[uint32] {
	return &sortMethod[uint32]{
		name:    "obs_net_" + alg.String(),
		against: cubRadixBits,
		accepts: anySpan,
		run: func(b *bench, c *call[uint32]) (int, error) {
			ns, err := use(b, func(runtime.Device) (networkSorters, error) { return networkSorters{}, nil })
			if err != nil {
				return 0, err
			}
			key := networkKey{alg, batchFor(c.keys.Len())}
			if ns[key] == nil {
				if ns[key], err = networks.New(b.dev, alg, key.batch); err != nil {
					delete(ns, key)
					return 0, err
				}
			}
			return c.keys.Len(), ns[key].Sort(c.out, c.keys)
		},
		check: checkBatches,
	}
}

// networkMethods are the rows of the sorting networks, one per algorithm.
func networkMethods() []method {
	var ms []method
	for _, alg := range networks.Algorithms() {
		ms = append(ms, networkMethod(alg))
	}
	return ms
}

// openSorter opens the sorts' Sorter, the fast pipeline.
func openSorter(dev runtime.Device) (*sorts.Sorter, error) { return sorts.New(dev) }

// openScan loads the exclusive uint32 sum.
func openScan(dev runtime.Device) (*scan.Scan[uint32], error) {
	return scan.New(dev, dsl.U32.Add, 0, scan.Exclusive)
}

// use returns the bench's T, opened by open on first use and closed with
// the bench: one Sorter serves every method that sorts with one.
func use[T io.Closer](b *bench, open func(runtime.Device) (T, error)) (T, error) {
	t := reflect.TypeFor[T]()
	if v, ok := b.tools[t]; ok {
		return v.(T), nil
	}
	v, err := open(b.dev)
	if err != nil {
		var zero T
		return zero, err
	}
	b.tools[t] = v
	b.opened = append(b.opened, v)
	return v, nil
}

// methodNames returns the names of methods, in their order, each once
// (a method of several key types has an entry per type).
func methodNames(methods []method) []string {
	var names []string
	for _, m := range methods {
		if !slices.Contains(names, m.label()) {
			names = append(names, m.label())
		}
	}
	return names
}

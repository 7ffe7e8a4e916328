// Package sorts runs the algorithms of "Counting and Occurrence Sort for
// GPUs using an Embedded Language" (Svenningsson, Svensson, Sheeran, FHPC'13)
// on a device: a Sorter launches the kernels of the package
// sorts/kernels, which are written in the DSL (Sklansky's prefix sum,
// sklanskyMax and distribute, histogram, occurs, reconstruct), and owns
// the scratch memory between them. This package is the host pipeline; it
// builds no kernel code of its own.
//
// A Sorter runs, by default, a faster pipeline built from the same pieces:
// the histogram and occurs keep their table in shared memory (a copy per
// warp for small ranges) and merge it into global memory once per block,
// occurs keeps one bit per value and sets it only when it is clear, and
// counting sort's reconstruct gives every block an equal tile of the output
// (a tile of up to 64 runs by each thread stepping over the runs that
// start between its outputs, others by marking those runs and a max-scan,
// or, spanning more than 2^16 values, by a binary search for each output),
// occurrence sort of a small range counts, scans and writes its keys in
// one block, and the scans read their data twice and write it once (tile totals, then
// each 4096-element tile rescanned from its offset in registers and warp
// shuffles); the shared-table kernels split their keys over as many blocks
// as the GPU keeps resident (runtime.GPU.ResidentBlocks), one wave, and
// each thread loads 8 keys of a tile before counting them (arrays.EachBatch). For
// ranges too wide for shared memory the histogram is built in windows of
// 2^23 bins, one pass over the keys each, so that its atomics stay in the
// L2 cache; a warp's lanes that share a bin combine into one update
// (arrays.WarpAggregateHot), and bins that lanes share go through a
// block's hash table in shared memory (arrays.Combiner) first, so that hot
// keys take one global atomic per block, not one per key. The bitset's
// lanes of a warp that hit one word combine their bits in one lane before
// one atomicOr. Sort and SortRange
// of at most kernels.BlockSortMaxKeys keys take one launch instead: the
// radix sort in one block (kernels.RadixBlockKernel) of the bits in which
// the keys differ, whatever their span, or, for 4097 to 8192 keys of a
// span of 2^9+1 to 2^12 values, a counting sort in one block
// (kernels.BlockCountKernel: the keys counted in shared memory, the
// counts scanned, the output filled by a max-scan of where each value's
// run starts), which takes two block scans where the radix sort takes a
// pass a digit (kernels.BlockCountShapeFor gives the measurements). The
// option Paper, and the methods PaperCountingSort and PaperOccurrenceSort,
// run the paper's kernels as written.
//
// Every per-key kernel checks its key against the declared range: a key
// outside it sets a flag that the host turns into an error, and is never
// used as an index. CountingSort reads the flag back before it returns;
// EnqueueCountingSort leaves it on the device, so that nothing waits for
// the host (10–25 µs a sort of 2^25 keys on an H200), and Sorter.Wait reads
// it for every sort enqueued since the last Wait.
//
// # Radix sort
//
// RadixSort sorts keys of every type of Key (32- and 64-bit unsigned and
// signed integers and floats) with no range to declare, by Onesweep
// (Adinets and Merrill 2022, CUB's DeviceRadixSort for large inputs), in
// kernels written in the DSL (sorts/kernels): least significant digit
// first, 8-bit digits, stable. One launch counts the digits of every pass
// in one read of the keys (one wave of blocks, 8 keys a thread in flight,
// counted a pass at a time: arrays.EachBatch); each pass is then one launch in which a block
// takes a tile of keys (arrays.BlockTile) into its threads' registers
// (arrays.Held), ranks them by digit (arrays.BlockMultisplitHeld), finds
// the counts of its digits in the tiles
// before it by a decoupled look-back (arrays.LookBack) and writes its keys
// in digit order. A pass in which every key has the same digit is
// skipped: the histogram's last block to finish plans on the device which
// passes run and where each reads and writes, so that nothing waits for
// the host. The look-back words are zeroed when first used, and each
// later pass, of this sort or the next, takes a new epoch of them
// instead. Floats sort in IEEE 754 totalOrder (-NaN < -Inf < ... <
// -0 < +0 < ... < +Inf < +NaN), compared by their bits. SortPairs moves
// values (32- or 64-bit) with their keys, Argsort gives the keys' positions
// in sorted order, RadixSortUnique and SortUniqueSlice keep the first of
// each run of equal keys (arrays.PartitionCount, a scan, and
// arrays.PartitionRanks), SortSlice sorts a slice, SortPairsSlice a slice
// of keys with a slice of values, and ArgsortSlice gives a slice's sorted
// positions. The option Bits sorts
// by a range of bits only, as CUB's begin_bit and end_bit, and the option
// Descending puts the largest key first, as CUB's SortKeysDescending (each
// digit counts down, d becoming 2^w-1-d: the keys move as in an ascending
// sort, and the sort stays stable); the slice
// functions find the bits in which the keys differ and run a pass per
// digit of them only (none when all the keys are equal). RadixSort,
// SortPairs and Argsort enqueue their launches and read nothing back;
// RadixSortUnique reads back the number of distinct keys. A Sorter made
// with the option OnStream queues every launch and fill on that stream, so
// that sorts of device buffers by Sorters on different streams overlap. Up to
// kernels.BlockSortMaxKeys keys sort in one launch: by a rank sort
// (kernels.RankSortKernel) where its table (measured on an H200) takes
// the keys and their bits, else in one block (kernels.RadixBlockKernel),
// as CUB's single-tile sort: the threads hold the keys in registers
// through every digit, and a pair's values are read once the keys are in
// order. The rank sort spreads over the whole GPU: a block per 32 keys
// loads every key into shared memory, its warps count the keys before
// each of its 32 (arrays.CountBefore: smaller, or equal and earlier; by
// arithmetic, arrays.CountBeforeNarrow, where fewer bits than the keys'
// are sorted) in runs of all of them, reading four 32-bit keys a load,
// and each key goes to the sum of its warps' counts. Its
// n^2 comparisons cost the same whatever the bits sorted, where the block
// sort's time grows with its passes (of digits of 4, 6 or 8 bits:
// kernels.BlockDigitBits), so that it takes sorts of at least 9 bits of
// up to 4096 keys, and of at least 17 (32-bit keys) or 25 (64-bit keys)
// bits of up to 2^13 keys, on a device of many multiprocessors (not on the CPU
// evaluator, which runs a launch's blocks one after another) whose blocks
// may take its shared memory (kernels.RankSortSharedBytes: 34 KB for
// 32-bit keys, 68 KB for 64-bit ones). It writes
// its output while other blocks read the input, so that sorts in place
// take the block sort. The radix sort's
// kernels are loaded on first use, per key and value type. It takes up to
// MaxRadixKeys keys, and its scratch is n keys (and values) and 8 bytes
// per digit per tile of look-back state.
//
// Sort, SortInt32 and SortUnique sort by counting or occurrence sort when
// the keys span at most MaxBins values, and by the radix sort otherwise,
// so that every slice sorts; CountingSortAuto and OccurrenceSortAuto still
// return ErrBadRange for such keys.
//
// # Choosing the algorithm
//
// SortKeys (device buffers, told the keys' range) and Sort (a slice, its
// range found first) pick the algorithm by a cost model over the number of
// keys n and the number of values of their range: up to
// kernels.BlockSortMaxKeys keys, the one-launch sorts (the rank sort, the
// block sort or the block counting sort, as above); up to
// 2^21 keys, the radix sort; up to 2^22 keys, counting sort for ranges of
// 2^9 to 2^12 values and of 2^18 to 2^22; up to 2^23 keys, for ranges of up
// to 2^15 values and of 2^18 to 2^22; up to 2^25 keys, for ranges of up to
// 2^23 values; beyond, for ranges of up to 2^24 values; the radix sort
// otherwise. The limits are the table countingLimits, from these medians
// (milliseconds) of cmd/obsbench on an H200 (docs/bench: radix.csv,
// counting.csv for counting sort at 2^25 keys, a later run after its
// reconstruct became faster, and a run at 2^21 to 2^24 keys over every
// range of T4 to T24, sorted, reversed, unique and equal keys, after the
// radix sort's histogram became faster), counting sort against the radix
// sort told the range's bits, uniform keys unless said:
//
//	keys     range  counting  radix
//	2^16     2^8    0.045     0.033
//	2^16     2^16   0.061     0.030
//	2^16     2^24   0.276     0.043
//	1000003  2^8    0.054     0.034
//	1000003  2^16   0.231     0.046
//	1000003  2^23   0.105     0.061
//	2^20     2^8    0.056     0.033
//	2^20     2^20   0.085     0.063
//	2^20     2^24   0.175     0.063
//	2^21     2^8    0.048     0.039
//	2^21     2^12   0.060     0.057
//	2^21     2^20   0.079     0.078
//	2^22     2^8    0.055     0.054
//	2^22     2^12   0.069     0.089
//	2^22     2^16   0.133     0.093
//	2^22     2^20   0.101     0.118
//	2^22     2^23   0.159     0.121
//	2^23     2^8    0.063     0.086
//	2^23     2^16   0.158     0.146
//	2^23     2^20   0.166     0.196
//	2^23     2^23   0.214     0.198
//	2^24     2^16   0.180     0.248
//	2^24     2^23   0.326     0.343
//	2^24     2^24   0.456     0.344
//	2^25     2^8    0.129     0.277
//	2^25     2^16   0.226     0.465
//	2^25     2^23   0.526     0.658
//	2^25     2^24   0.690     0.661
//	2^25     2^25   0.975     0.834  (unique keys)
//	2^25     2^25   0.490     0.803  (sorted keys)
//	2^27     2^24   2.243     2.493  (radix over every bit)
//	2^27     2^27   7.566     3.111  (unique keys, every bit)
//
// Up to 2^20 keys the radix sort, which reads nothing back to the host,
// was faster for every range measured: by 1.1 to 6.4 times for uniform
// ranges (T4 to T24) and 1.0 to 2.2 times for sorted, reversed and unique
// keys (the one radix sort of sorted keys at 2^20 that measured slower,
// 0.081 ms, is an outlier: the picked sort, the same radix sort, took
// 0.055 there). Timed again after counting sort's reconstruct became
// faster (counting.csv, T8, T16 and T24), counting sort still took 0.042
// to 0.670 ms at 2^16, 1000003 and 2^20 keys against the radix sort's
// 0.023 to 0.061. At 2^25 keys counting sort won up to 2^23
// values and lost at 2^24 (by 4 %); for 2^25 values it won on sorted keys and lost on
// unique ones, and the table takes the radix sort
// there, whose worst case is the smaller. At 2^27 keys it won at 2^24
// values. Between them (2^21 to 2^24 keys, counting sort's flag read
// back included) the crossover moves with the keys and is not one span
// of ranges: at 2^21 keys counting sort lost nearly everywhere (0.90 to
// 2.64 times the radix sort's time, T9 alone faster); at 2^22 it won for
// 2^9 to 2^12 values (0.64 to 0.77) and 2^18 to 2^22 (0.85 to 0.99) and
// lost at 2^16 and 2^17 (1.44, 1.72), where its table in shared memory
// takes two slices, and at 2^23 values (1.31); at 2^23 keys it won up to
// 2^15 values and from 2^18 to 2^22 and lost at 2^16, 2^17 and 2^23 (1.09,
// 1.22, 1.08); at 2^24 keys it won up to 2^23 values (0.34 to 0.95) and
// lost at 2^24 (1.33). Ranges wider than those measured go to the radix
// sort, whose cost does not grow with the range.
//
// # The papers' sorts
//
// A Sorter also runs the other source papers' sorts, their kernels written
// in the DSL as the papers describe them (see the package sorts/kernels),
// with the arguments, checks and errors of the methods above:
//
//   - HPSort, HPSortDistinct and HPSortFew are the integer sorts of
//     Kozakai, Fujimoto and Wada ("Efficient GPU-Implementation for Integer
//     Sorting Based on Histogram and Prefix-Sums"): H-P, the histogram A of
//     the keys, its prefix sums Ap, the histogram B of Ap and B's prefix
//     sums, which are the sorted keys; 1-H-P for distinct keys (a key given
//     twice is ErrNotDistinct), one histogram and one prefix sum, value v
//     written where Ap steps; 0-compressed H-P for keys of few distinct
//     values, B built from the counts of the values that occur.
//   - CountSortPairs is the count sort of Sun and Ma ("Count Sort for GPU
//     Computing") for (key, value) pairs: count, scan, and a scatter in
//     which every pair takes its position with an atomic add, so that it is
//     not stable. The example examples/suffixarray builds suffix arrays
//     with it.
//   - NotesRadixSort is the LSD radix sort of the radix sort notes: every
//     pass sorts the tiles of the keys locally by 0/1 masks of each digit
//     value and Blelloch scans (arrays.BlellochScan, with its bank-conflict
//     padding), scans the tiles' digit counts, and scatters the tiles'
//     runs of equal digits, coalesced; digits of 1, 2 or 4 bits
//     (ErrBadDigitBits otherwise).
//
// Their kernels are loaded by the first call of one of them.
//
// # Bad input and cost
//
// Every method of a Sorter checks its arguments before it touches the
// device and returns an error that names what was wrong: a *BufferError
// for a buffer that is nil, freed, an out-of-range view, on another device
// than the Sorter's, of the wrong length, or sharing memory with another
// argument where that breaks the call (and for a slice of values that is
// not as long as its keys); ErrBadRange for a range that is
// empty, inverted, wider than MaxBins or (for a histogram) past 2^32-1;
// ErrKeyOutOfRange for a key outside its range; ErrBadOption for a nil
// option or one the call does not take; ErrNoDevice and ErrClosed for a
// Sorter that cannot run. A call then reserves the scratch memory it
// needs (8 bytes per value of a counting sort's range, three bits per value
// of the fast occurrence sort's, a few words per 4096 keys) once it
// has checked that the device can give it: a GPU's free memory, or what
// the CPU evaluator's memory limit leaves (runtime.CPUMemoryLimit) for the
// scratch and the state its launches keep (runtime.CPULaunchBytesPerElement);
// ErrTooLarge otherwise, before anything is allocated or launched. When an allocation fails all the same, the Sorter
// frees its scratch and returns the device's error.
//
// On the CPU evaluator a call takes time in proportion to its keys and its
// range (see the runtime package's documentation for the evaluator's cost);
// a device made with runtime.CPUContext stops a call when its context ends.
//
// A Sorter runs one call at a time: calls from several goroutines wait for
// each other, as they share its scratch.
package sorts

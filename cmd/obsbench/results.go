package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"unicode"
)

// csvHeader is the header line of the benchmark's CSV, the baseline's and
// obsbench's alike.
const csvHeader = "n,dist,method,median_ms,min_ms,max_ms,runs"

// Method names of the rows: ours, then the baseline's (bench/cub/baseline.cu).
const (
	obsCounting   = "obs_counting"
	obsOccurrence = "obs_occurrence"
	// Sorter.EnqueueCountingSort: counting sort without the read back of
	// its range check, which a later Sorter.Wait would make.
	obsCountingEnqueued = "obs_counting_enqueued"
	// The paper's pipelines, kept for comparison.
	obsCountingPaper   = "obs_counting_paper"
	obsOccurrencePaper = "obs_occurrence_paper"
	// The exclusive scan of the keys (uint32 sums).
	obsScan = "obs_scan"
	// Sorter.SortKeys told the range [lo, max]: the sort the cost model
	// picks (uint32 keys).
	obsSort = "obs_sort"
	// The radix sort over every bit of the key type, of keys and of pairs
	// with uint32 values.
	obsRadixFull = "obs_radix_full"
	obsPairsFull = "obs_pairs_full"
	// The same largest first (sorts.Descending).
	obsRadixDesc = "obs_radix_desc"
	obsPairsDesc = "obs_pairs_desc"
	// The radix sort told the range's bits, of keys and of pairs with
	// uint32 values.
	obsRadixBits = "obs_radix_bits"
	obsPairsBits = "obs_pairs_bits"
	// The other papers' sorts: H-P, 1-H-P (distinct keys only) and
	// 0-compressed H-P told the range, the notes' radix sort by 4-bit
	// digits, the count sort of pairs.
	obsHP         = "obs_hp"
	obsHPDistinct = "obs_hp_distinct"
	obsHPFew      = "obs_hp_few"
	obsNotesRadix = "obs_notes_radix"
	obsCountPairs = "obs_count_pairs"

	// cub::DeviceRadixSort::SortKeys over the key type's every bit, and
	// over bits [0, b) with b the bit length of the range's largest key
	// (uint32 keys only).
	cubRadixFull = "cub_radix_full"
	cubRadixBits = "cub_radix_bits"
	// cub::DeviceRadixSort::SortPairs with uint32 values, the same two
	// ways.
	cubPairsFull = "cub_pairs_full"
	cubPairsBits = "cub_pairs_bits"
	// SortKeysDescending and SortPairsDescending (uint32 values) over every
	// bit of the key type.
	cubRadixDesc = "cub_radix_desc"
	cubPairsDesc = "cub_pairs_desc"
	thrustSort   = "thrust_sort"
	// The radix sort (told the range's bits for uint32 keys), then
	// cub::DeviceSelect::Unique.
	cubSortUnique = "cub_sort_unique"
	// cub::DeviceScan::ExclusiveSum of uint32 keys.
	cubScan = "cub_scan"
	// The device-to-device copy of the keys: the floor.
	memcpyMethod = "memcpy"
)

// baselineMethods are the baseline's methods, in its order.
var baselineMethods = []string{cubRadixBits, cubRadixFull, cubPairsBits, cubPairsFull, cubRadixDesc, cubPairsDesc, thrustSort, cubSortUnique,
	cubScan, memcpyMethod}

// methodOrder is the order of the methods in the CSV, the charts' legends
// and their colours: ourMethods, then the baseline's.
var methodOrder = append(methodNames(ourMethods), baselineMethods...)

// row is one measurement: a method sorting n keys of one distribution,
// timed over runs runs.
type row struct {
	n                      int
	dist, method           string
	medianMS, minMS, maxMS float64
	runs                   int
}

// readCSV reads the rows of a CSV with csvHeader's columns.
func readCSV(r io.Reader) ([]row, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(strings.Split(csvHeader, ","))
	cr.TrimLeadingSpace = true
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, errors.New("the CSV is empty: want the header " + csvHeader)
	}
	if err != nil {
		return nil, err
	}
	if got := strings.Join(header, ","); got != csvHeader {
		return nil, fmt.Errorf("CSV header is %q, want %q", got, csvHeader)
	}
	var rows []row
	seen := map[rowKey]int{}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return rows, nil
		}
		if err != nil {
			return nil, err
		}
		line, _ := cr.FieldPos(0)
		r, err := parseRow(rec)
		if err != nil {
			return nil, fmt.Errorf("CSV line %d: %w", line, err)
		}
		if first, ok := seen[r.key()]; ok {
			return nil, fmt.Errorf("CSV line %d: a second row for n=%d dist=%s method=%s (the first is on line %d)", line, r.n, r.dist, r.method, first)
		}
		seen[r.key()] = line
		rows = append(rows, r)
	}
}

// rowKey is what names a measurement: a CSV holds at most one row of each.
type rowKey struct {
	n            int
	dist, method string
}

// key returns r's rowKey.
func (r row) key() rowKey { return rowKey{r.n, r.dist, r.method} }

// parseRow parses one CSV record.
func parseRow(rec []string) (row, error) {
	r := row{dist: rec[1], method: rec[2]}
	var err error
	if r.n, err = strconv.Atoi(rec[0]); err != nil || r.n < 1 {
		return row{}, fmt.Errorf("n %q is not a positive integer", rec[0])
	}
	if r.dist == "" || r.method == "" {
		return row{}, errors.New("empty dist or method")
	}
	for _, name := range []string{r.dist, r.method} {
		if strings.ContainsFunc(name, unicode.IsControl) {
			return row{}, fmt.Errorf("name %q holds a control character", name)
		}
	}
	for i, dst := range []*float64{&r.medianMS, &r.minMS, &r.maxMS} {
		if *dst, err = strconv.ParseFloat(rec[3+i], 64); err != nil || *dst < 0 || math.IsInf(*dst, 0) || math.IsNaN(*dst) {
			return row{}, fmt.Errorf("time %q is not a finite non-negative number", rec[3+i])
		}
	}
	if r.minMS > r.medianMS || r.medianMS > r.maxMS {
		return row{}, fmt.Errorf("times out of order: min %s, median %s, max %s", rec[4], rec[3], rec[5])
	}
	if r.runs, err = strconv.Atoi(rec[6]); err != nil || r.runs < 1 {
		return row{}, fmt.Errorf("runs %q is not a positive integer", rec[6])
	}
	return r, nil
}

// writeCSV writes rows under csvHeader, times in milliseconds with six
// decimals as the baseline prints them, quoting a name only where the CSV
// needs it (a comma, a quote, a line break).
func writeCSV(w io.Writer, rows []row) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(strings.Split(csvHeader, ",")); err != nil {
		return err
	}
	ms := func(v float64) string { return strconv.FormatFloat(v, 'f', 6, 64) }
	for _, r := range rows {
		if err := cw.Write([]string{strconv.Itoa(r.n), r.dist, r.method, ms(r.medianMS), ms(r.minMS), ms(r.maxMS), strconv.Itoa(r.runs)}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// readCSVFile reads the rows of a CSV file.
func readCSVFile(path string) ([]row, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, err := readCSV(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rows, nil
}

// writeCSVFile writes rows as a CSV file.
func writeCSVFile(path string, rows []row) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := writeCSV(f, rows); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

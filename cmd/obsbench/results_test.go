package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// TestCSVRoundTrip writes rows and reads them back unchanged.
func TestCSVRoundTrip(t *testing.T) {
	rows := []row{
		{n: 1 << 20, dist: "T4", method: obsCounting, medianMS: 1.25, minMS: 1.125, maxMS: 2.5, runs: 15},
		{n: 1 << 25, dist: "unique", method: cubSortUnique, medianMS: 0.000125, minMS: 0, maxMS: 123.456789, runs: 21},
	}
	var buf bytes.Buffer
	if err := writeCSV(&buf, rows); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), csvHeader+"\n1048576,T4,obs_counting,1.250000,1.125000,2.500000,15\n") {
		t.Errorf("CSV text:\n%s", buf.String())
	}
	got, err := readCSV(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, rows) {
		t.Errorf("read back %v, want %v", got, rows)
	}
}

// TestReadCSVReadsTheBaselinesOutput parses text as the baseline prints it.
func TestReadCSVReadsTheBaselinesOutput(t *testing.T) {
	text := csvHeader + "\n33554432,T16,cub_radix_bits,0.401000,0.398000,0.410000,15\n"
	rows, err := readCSV(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	want := row{n: 1 << 25, dist: "T16", method: cubRadixBits, medianMS: 0.401, minMS: 0.398, maxMS: 0.41, runs: 15}
	if len(rows) != 1 || rows[0] != want {
		t.Errorf("rows %v, want [%v]", rows, want)
	}
}

func TestReadCSVRejectsBadInput(t *testing.T) {
	for name, text := range map[string]string{
		"empty":        "",
		"header":       "n,dist,method,median,min,max,runs\n",
		"columns":      csvHeader + "\n1,T4,memcpy,1,1,1\n",
		"n":            csvHeader + "\nzero,T4,memcpy,1,1,1,15\n",
		"negative n":   csvHeader + "\n-4,T4,memcpy,1,1,1,15\n",
		"time":         csvHeader + "\n4,T4,memcpy,fast,1,1,15\n",
		"infinite":     csvHeader + "\n4,T4,memcpy,inf,1,1,15\n",
		"not a number": csvHeader + "\n4,T4,memcpy,NaN,1,1,15\n",
		"runs":         csvHeader + "\n4,T4,memcpy,1,1,1,0\n",
		"method":       csvHeader + "\n4,T4,,1,1,1,15\n",
		"line break":   csvHeader + "\n4,\"T\r\r\n4\",memcpy,1,1,1,15\n",
		"tab":          csvHeader + "\n4,T4,mem\tcpy,1,1,1,15\n",
	} {
		if rows, err := readCSV(strings.NewReader(text)); err == nil {
			t.Errorf("%s: read %v, want an error", name, rows)
		}
	}
}

// TestSortRowsOrdersByBenchmarkOrder puts n first, then distribution and
// method in their benchmark order, unknown names last.
func TestSortRowsOrdersByBenchmarkOrder(t *testing.T) {
	rows := []row{
		{n: 2, dist: "T4", method: obsCounting},
		{n: 1, dist: "unique", method: memcpyMethod},
		{n: 1, dist: "T10", method: "zzz"},
		{n: 1, dist: "T10", method: memcpyMethod},
		{n: 1, dist: "T10", method: obsOccurrence},
		{n: 1, dist: "T9", method: cubRadixBits},
		{n: 1, dist: "other", method: obsCounting},
	}
	sortRows(rows)
	var got []string
	for _, r := range rows {
		got = append(got, r.dist+"/"+r.method)
	}
	want := []string{"T9/cub_radix_bits", "T10/obs_occurrence", "T10/memcpy", "T10/zzz", "unique/memcpy", "other/obs_counting", "T4/obs_counting"}
	if !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}

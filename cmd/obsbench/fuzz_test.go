package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// FuzzReadCSV reads arbitrary text as a benchmark CSV: it must never
// panic, and what it accepts must write back as a CSV that reads to the
// same measurements and writes to the very same text again.
func FuzzReadCSV(f *testing.F) {
	f.Add(csvHeader + "\n33554432,T16,cub_radix_bits,0.401000,0.398000,0.410000,15\n")
	f.Add(csvHeader + "\n64,T4,memcpy,1,1,1,15\n64,T5,memcpy,1,1,1,15\n64,T4,memcpy,1,1,1,15\n")
	f.Add(csvHeader + "\n4,\"T,4\",memcpy,1,1,1,15\n")
	f.Add(csvHeader + "\n4,T4,memcpy,NaN,1,1,15\n")
	f.Add("n,dist,method,median_ms,min_ms,max_ms,runs")
	f.Add("")
	f.Fuzz(func(t *testing.T, text string) {
		rows, err := readCSV(strings.NewReader(text))
		if err != nil {
			return
		}
		var once bytes.Buffer
		if err := writeCSV(&once, rows); err != nil {
			t.Fatal(err)
		}
		again, err := readCSV(bytes.NewReader(once.Bytes()))
		if err != nil {
			t.Fatalf("rows %v wrote\n%s\nwhich does not read back: %v", rows, once.String(), err)
		}
		if !slices.EqualFunc(rows, again, func(a, b row) bool { return a.key() == b.key() && a.runs == b.runs }) {
			t.Fatalf("rows %v read back as %v", rows, again)
		}
		var twice bytes.Buffer
		if err := writeCSV(&twice, again); err != nil {
			t.Fatal(err)
		}
		if twice.String() != once.String() {
			t.Fatalf("writing twice differs:\n%s\n%s", once.String(), twice.String())
		}
	})
}

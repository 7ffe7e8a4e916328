package main

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// distNamed returns the distribution called name, which must exist.
func distNamed(t *testing.T, name string) distribution {
	t.Helper()
	d, err := distributionNamed(name)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// keyText writes d's n keys from seed as keys_dump prints them: the name,
// then the keys (floats as their bits) separated by spaces, and for
// integer keys a second line with the span.
func keyText(d distribution, n int, seed uint64) string {
	var b strings.Builder
	b.WriteString(d.label())
	spanLine := func(s span, ok bool) {
		if ok {
			fmt.Fprintf(&b, "\n%s/span %d %d %d", d.label(), s.lo, s.max, s.bits())
		}
	}
	switch d := d.(type) {
	case *dist[uint32]:
		for _, k := range d.keys(n, seed) {
			fmt.Fprintf(&b, " %d", k)
		}
		spanLine(d.spanOf(n, seed))
	case *dist[uint64]:
		for _, k := range d.keys(n, seed) {
			fmt.Fprintf(&b, " %d", k)
		}
		spanLine(d.spanOf(n, seed))
	case *dist[float32]:
		for _, k := range d.keys(n, seed) {
			fmt.Fprintf(&b, " %d", math.Float32bits(k))
		}
		spanLine(d.spanOf(n, seed))
	default:
		panic(fmt.Sprintf("distribution %s of type %T", d.label(), d))
	}
	return b.String() + "\n"
}

// TestKeysMatchBaseline checks the generator against keys the baseline's
// generator (bench/cub/keys.h) printed for seed 1, and the vectors of its
// header comment.
func TestKeysMatchBaseline(t *testing.T) {
	for _, want := range []string{
		"T8 145 190 248 113 113 195 224 133\nT8/span 0 255 8\n",
		"T24 9505325 12512141 16290722 7455110\nT24/span 0 16777215 24\n",
		"T32 2433363436 3203108257 4170425070 1908508304 1908102360 3276606463 3768183916 2246556431\nT32/span 0 4294967295 32\n",
		"U64 10451216379200822465 13757245211066428519 17911839290282890590 8196980753821780235 8195237237126968761 14072917602864530048 16184226688143867045 9648886400068060533\nU64/span 0 18446744073709551615 64\n",
		"F32 1040732520 1056681524 1064380228 3185829792 3185855168 1057397270 1061237720 1027405664\n",
		"skewed 45597054 411011436 3394091545 6528800 6517699 492805151 1507779043 24066870\nskewed/span 0 4294967295 32\n",
		"few16 1735777399 2276671958 1735777399 1872457134 3203108257 3203108257 2246556431 3203108257\nfew16/span 717409815 4170425070 32\n",
		"equal 2433363436 2433363436 2433363436 2433363436 2433363436 2433363436 2433363436 2433363436\nequal/span 2433363436 2433363436 32\n",
		"sorted 0 1 2 3 4\nsorted/span 0 4 3\n",
		"reverse 7 6 5 4 3 2 1 0\nreverse/span 0 7 3\n",
		"unique 4 3 2 7 5 6 0 1\nunique/span 0 7 3\n",
	} {
		name, keys, _ := strings.Cut(strings.SplitN(want, "\n", 2)[0], " ")
		n := len(strings.Fields(keys))
		if got := keyText(distNamed(t, name), n, 1); got != want {
			t.Errorf("%s, n=%d, seed 1:\ngot  %q\nwant %q", name, n, got, want)
		}
	}
}

// TestKeysMatchTheBaselinesGenerator builds bench/cub/keys_dump.cpp with
// the host's C++ compiler and compares every distribution's keys and span
// with Go's, for a few key counts and seeds.
func TestKeysMatchTheBaselinesGenerator(t *testing.T) {
	bin := buildCXX(t, "keys_dump.cpp")
	for _, tc := range []struct {
		n    int
		seed uint64
	}{{1, 1}, {2, 7}, {37, 1}, {1000, 12345}, {4099, 1 << 62}} {
		out, err := exec.Command(bin, fmt.Sprint(tc.n), fmt.Sprint(tc.seed)).Output()
		if err != nil {
			t.Fatal(err)
		}
		var want strings.Builder
		for _, d := range distributions() {
			want.WriteString(keyText(d, tc.n, tc.seed))
		}
		got, wantLines := strings.Split(string(out), "\n"), strings.Split(want.String(), "\n")
		if len(got) != len(wantLines) {
			t.Fatalf("n=%d seed=%d: C++ printed %d lines, Go %d", tc.n, tc.seed, len(got), len(wantLines))
		}
		for i := range got {
			if got[i] != wantLines[i] {
				t.Errorf("n=%d seed=%d, line %d:\nC++ %.200s\nGo  %.200s", tc.n, tc.seed, i, got[i], wantLines[i])
			}
		}
	}
}

// buildCXX builds the C++ program bench/cub/source with the host's C++
// compiler (skipping the test when there is none) and extra flags, and
// returns the binary's path.
func buildCXX(t *testing.T, source string, flags ...string) string {
	t.Helper()
	cxx := ""
	for _, name := range []string{os.Getenv("CXX"), "clang++-14", "clang++", "c++", "g++"} {
		if path, err := exec.LookPath(name); name != "" && err == nil {
			cxx = path
			break
		}
	}
	if cxx == "" {
		t.Skip("no C++ compiler to build bench/cub/" + source)
	}
	bin := filepath.Join(t.TempDir(), strings.TrimSuffix(filepath.Base(source), filepath.Ext(source)))
	args := append([]string{"-std=c++17", "-O0", "-o", bin}, flags...)
	args = append(args, filepath.Join("..", "..", "bench", "cub", source), "-lpthread")
	if out, err := exec.Command(cxx, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", cxx, args, err, out)
	}
	return bin
}

// TestKeysLieInTheirSpan checks every integer distribution's keys against
// its span, and each distribution's defining property.
func TestKeysLieInTheirSpan(t *testing.T) {
	const n = 4096
	dists := distributions()
	if len(dists) != maxBits-minBits+1+9 || dists[0].label() != "T4" || dists[len(dists)-1].label() != "unique" {
		t.Fatalf("distributions %v", distOrder())
	}
	for _, d := range dists {
		switch d := d.(type) {
		case *dist[uint32]:
			s, ok := d.spanOf(n, 7)
			if !ok {
				t.Fatalf("%s has no span", d.name)
			}
			keys := d.keys(n, 7)
			for i, k := range keys {
				if uint64(k) < s.lo || uint64(k) > s.max {
					t.Fatalf("%s: key %d is %d, outside [%d, %d]", d.name, i, k, s.lo, s.max)
				}
			}
		case *dist[float32]:
			for i, k := range d.keys(n, 7) {
				if !(k >= -1 && k < 1) || k != float32(math.Round(float64(k)*(1<<23)))/(1<<23) {
					t.Fatalf("%s: key %d is %v, not on the grid of 2^-23 in [-1, 1)", d.name, i, k)
				}
			}
		}
	}
	keysOf := func(name string) []uint32 { return distNamed(t, name).(*dist[uint32]).keys(n, 7) }
	if unique := sortedCopy(keysOf("unique")); !slices.Equal(unique, keysOf("sorted")) {
		t.Error("unique keys are not a permutation of 0 ... n-1")
	}
	if rev := keysOf("reverse"); !slices.IsSortedFunc(rev, func(a, b uint32) int { return int(b) - int(a) }) || rev[0] != n-1 {
		t.Error("reverse keys do not descend from n-1")
	}
	if few := slices.Compact(sortedCopy(keysOf("few16"))); len(few) > fewValues || len(few) < fewValues/2 || few[len(few)-1] < 1<<28 {
		t.Errorf("few16 has %d distinct keys up to %d, want at most %d spread over the uint32 range", len(few), few[len(few)-1], fewValues)
	}
	if equal := slices.Compact(keysOf("equal")); len(equal) != 1 {
		t.Errorf("equal keys take %d values", len(equal))
	}
	skewed := keysOf("skewed")
	zeros := n - len(slices.DeleteFunc(slices.Clone(skewed), func(k uint32) bool { return k == 0 }))
	small := n - len(slices.DeleteFunc(slices.Clone(skewed), func(k uint32) bool { return k < 1<<16 }))
	// P(key = 0) = P(u < 1/16) = 1/16; P(key < 2^16) ≈ (2^-16)^(1/8) = 1/4.
	if zeros < n/16-n/40 || zeros > n/16+n/40 || small < n/4-n/20 || small > n/4+n/20 {
		t.Errorf("skewed: %d of %d keys are 0 and %d below 2^16, want about n/16 and n/4", zeros, n, small)
	}
	if slices.Equal(keysOf("T4"), distNamed(t, "T4").(*dist[uint32]).keys(n, 8)) {
		t.Error("seeds 7 and 8 give the same T4 keys")
	}
}

func TestSpanBits(t *testing.T) {
	for _, tc := range []struct {
		s     span
		bits  int
		width uint64
	}{
		{span{0, 0}, 1, 1},
		{span{0, 1}, 1, 2},
		{span{0, 15}, 4, 16},
		{span{5, 16}, 5, 12},
		{span{0, math.MaxUint32}, 32, 1 << 32},
		{span{0, math.MaxUint64}, 64, math.MaxUint64},
	} {
		if got := tc.s.bits(); got != tc.bits {
			t.Errorf("%+v.bits() = %d, want %d", tc.s, got, tc.bits)
		}
		if got := tc.s.width(); got != tc.width {
			t.Errorf("%+v.width() = %d, want %d", tc.s, got, tc.width)
		}
	}
}

func TestDistributionNamed(t *testing.T) {
	if _, err := distributionNamed("T3"); err == nil || !strings.Contains(err.Error(), `"T3"`) || !strings.Contains(err.Error(), "few16") {
		t.Errorf("error %v, want the unknown name and the known ones", err)
	}
	quick := quickDistributions()
	if len(quick) != 6+9 || quick[1].label() != "T8" || quick[5].label() != "T24" || quick[6].label() != "T32" {
		t.Errorf("quick distributions %v", quick)
	}
}

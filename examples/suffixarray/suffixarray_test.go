package main

import (
	"bytes"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/examples/internal/extest"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
)

// naiveSuffixArray sorts the suffixes of text by comparing them.
func naiveSuffixArray(text []byte) []uint32 {
	sa := make([]uint32, len(text))
	for i := range sa {
		sa[i] = uint32(i)
	}
	slices.SortFunc(sa, func(a, b uint32) int { return bytes.Compare(text[a:], text[b:]) })
	return sa
}

// randomText returns n characters drawn from the first letters of
// alphabet.
func randomText(r *rand.Rand, n int, alphabet string) []byte {
	text := make([]byte, n)
	for i := range text {
		text[i] = alphabet[r.Intn(len(alphabet))]
	}
	return text
}

// TestSuffixArray compares SuffixArray with a sort of the suffixes on
// random texts of several alphabets and lengths, texts of one repeated
// character and of repeated patterns (the most rounds), and the empty text.
func TestSuffixArray(t *testing.T) {
	r := extest.Rand(t)
	binary := string([]byte{0, 255})
	var all strings.Builder
	for c := range 256 {
		all.WriteByte(byte(c))
	}
	texts := [][]byte{{}, []byte("a"), []byte("banana"), []byte("mississippi"),
		bytes.Repeat([]byte("a"), 1+r.Intn(300)), bytes.Repeat([]byte("ab"), 1+r.Intn(150)),
		bytes.Repeat([]byte("abcab"), 1+r.Intn(60)), bytes.Repeat([]byte{0}, 129)}
	for _, alphabet := range []string{"ab", "acgt", "abcdefghijklmnopqrstuvwxyz", binary, all.String()} {
		for _, n := range []int{2, 3, 1 + r.Intn(64), 1 + r.Intn(500)} {
			texts = append(texts, randomText(r, n, alphabet))
		}
	}
	extest.OnDevices(t, func(t *testing.T, dev runtime.Device) {
		s, err := sorts.New(dev)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		for _, text := range texts {
			got, err := SuffixArray(s, dev, text)
			if err != nil {
				t.Fatalf("text %q: %v", text, err)
			}
			if want := naiveSuffixArray(text); !slices.Equal(got, want) {
				t.Errorf("text %q: suffix array %v, want %v", text, got, want)
			}
		}
	})
}

// TestSuffixArrayTooLong checks that a text past MaxText is refused,
// before anything runs.
func TestSuffixArrayTooLong(t *testing.T) {
	dev := runtime.CPU()
	s, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, err = SuffixArray(s, dev, make([]byte, MaxText+1))
	if err == nil || !strings.Contains(err.Error(), "more than MaxText") {
		t.Fatalf("a text of MaxText+1 bytes: error %v, want one saying more than MaxText", err)
	}
}

// TestRun runs the command on words and checks its lines.
func TestRun(t *testing.T) {
	var out bytes.Buffer
	if err := run(false, []string{"banana"}, nil, &out); err != nil {
		t.Fatal(err)
	}
	want := "     5 \"a\"\n     3 \"ana\"\n     1 \"anana\"\n     0 \"banana\"\n     4 \"na\"\n     2 \"nana\"\n"
	if out.String() != want {
		t.Fatalf("run banana printed\n%s\nwant\n%s", out.String(), want)
	}
}

// TestGPUSuffixArray builds the suffix arrays of long texts on GPU 0 (a
// random DNA text of MaxText bases, whose last rounds sort keys of nearly
// 2^30 values, and a repeated pattern) and compares them with a sort of the
// suffixes. It skips, saying why, where there is no GPU.
func TestGPUSuffixArray(t *testing.T) {
	g, err := runtime.Open(0)
	if err != nil {
		t.Skipf("no GPU: %v", err)
	}
	defer g.Close()
	s, err := sorts.New(g)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := extest.Rand(t)
	for _, text := range [][]byte{randomText(r, MaxText, "acgt"), bytes.Repeat([]byte("abaab"), 2000)} {
		got, err := SuffixArray(s, g, text)
		if err != nil {
			t.Fatalf("a text of %d bytes: %v", len(text), err)
		}
		if want := naiveSuffixArray(text); !slices.Equal(got, want) {
			t.Errorf("a text of %d bytes: the suffix array differs from a sort of the suffixes", len(text))
		}
	}
}

package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
)

func main() {
	gpu := flag.Bool("gpu", false, "build the suffix array on GPU 0 instead of the CPU evaluator")
	flag.Parse()
	if err := run(*gpu, flag.Args(), os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "suffixarray:", err)
		os.Exit(1)
	}
}

// run prints the suffix array of the words joined by spaces, or of in when
// there are none, one suffix per line: its start and its first characters.
func run(gpu bool, words []string, in io.Reader, out io.Writer) error {
	text := []byte(strings.Join(words, " "))
	if len(words) == 0 {
		var err error
		if text, err = io.ReadAll(in); err != nil {
			return err
		}
	}
	var dev runtime.Device = runtime.CPU()
	if gpu {
		g, err := runtime.Open(0)
		if err != nil {
			return err
		}
		defer g.Close()
		dev = g
	}
	s, err := sorts.New(dev)
	if err != nil {
		return err
	}
	defer s.Close()
	sa, err := SuffixArray(s, dev, text)
	if err != nil {
		return err
	}
	for _, p := range sa {
		suffix := text[p:]
		if len(suffix) > 40 {
			suffix = suffix[:40]
		}
		if _, err := fmt.Fprintf(out, "%6d %q\n", p, suffix); err != nil {
			return err
		}
	}
	return nil
}

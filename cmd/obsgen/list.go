package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/obsidian-go/obsidian/internal/catalog"
)

func list(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("list", "list\n\nLists the kernels of the library's catalogue, with their parameters.")
	if err := parse(fs, args, stdout, stderr); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError(fs, stderr, "unexpected arguments %v", fs.Args())
	}
	for _, e := range catalog.Entries() {
		k, err := e.Kernel()
		if err != nil {
			return err
		}
		var params []string
		for _, p := range k.Params {
			if p.Array != nil {
				params = append(params, fmt.Sprintf("%s []%v (%v)", p.Name(), p.Array.Elem, p.Array.Access))
			} else {
				params = append(params, fmt.Sprintf("%s %v", p.Name(), p.Scalar.T))
			}
		}
		sized := ""
		if e.WithThreads != nil {
			sized = ", -threads applies"
		}
		fmt.Fprintf(stdout, "%-16s %s\n%16s (%s) %d threads%s\n", e.Name, e.Doc, "", strings.Join(params, ", "), k.Threads, sized)
	}
	return nil
}

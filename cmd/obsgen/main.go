package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// errUsage marks a bad command line: exit status 2. The message has been
// printed already.
var errUsage = errors.New("usage")

const usage = `obsgen writes CUDA C and Go launchers for kernels written with the obsidian Go DSL.

Usage:
  obsgen list                                               list the kernels of the library's catalogue
  obsgen emit [-o DIR] [-threads N] [-go PKG] [kernel ...]  write DIR/<kernel>.cu for catalogue kernels
  obsgen run [-o DIR] [PKGDIR]                              write the launchers of a package whose Kernels()
                                                            returns its kernels, and their .cu files (go:generate)

Run "obsgen <command> -h" for a command's flags.
`

// commands maps each subcommand to its implementation.
var commands = map[string]func(args []string, stdout, stderr io.Writer) error{
	"list": list,
	"emit": emit,
	"run":  runPackage,
}

// run runs obsgen with args and returns its exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "obsgen: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
	err := cmd(args[1:], stdout, stderr)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	}
	fmt.Fprintf(stderr, "obsgen %s: %v\n", args[0], err)
	return 1
}

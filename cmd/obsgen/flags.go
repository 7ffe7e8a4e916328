package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// newFlags returns the flag set of a subcommand; synopsis is its usage
// line and what it does. parse prints the usage where it belongs.
func newFlags(name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: obsgen %s\n\nFlags:\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses args. -h prints the usage to stdout and returns
// flag.ErrHelp; a bad flag prints the error and the usage to stderr and
// returns errUsage.
func parse(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) error {
	err := fs.Parse(args)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		fs.SetOutput(stdout)
		fs.Usage()
		return err
	}
	fs.SetOutput(stderr)
	fmt.Fprintf(stderr, "obsgen %s: %v\n", fs.Name(), err)
	fs.Usage()
	return errUsage
}

// usageError prints a command-line mistake and the usage to stderr and
// returns errUsage.
func usageError(fs *flag.FlagSet, stderr io.Writer, format string, args ...any) error {
	fmt.Fprintf(stderr, "obsgen %s: %s\n", fs.Name(), fmt.Sprintf(format, args...))
	fs.SetOutput(stderr)
	fs.Usage()
	return errUsage
}

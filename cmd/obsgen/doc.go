// Command obsgen writes the generated files of kernels written with the
// obsidian Go DSL: CUDA C (.cu) files and typed Go launchers.
//
// Usage:
//
//	obsgen list                                          list the kernels of the library's catalogue
//	obsgen emit [-o DIR] [-threads N] [-go PKG] [kernel ...]  write DIR/<kernel>.cu (and DIR/PKG_launch.go)
//	obsgen run [-o DIR] [PKGDIR]                         generate the files of a package of kernels (.cu files into DIR)
//
// obsgen run is meant for go:generate: a package that defines
//
//	func Kernels() []*dsl.Kernel
//
// and carries the line
//
//	//go:generate go tool obsgen run .
//
// (with the line `tool github.com/obsidian-go/obsidian/cmd/obsgen` in its
// go.mod, which `go get -tool github.com/obsidian-go/obsidian/cmd/obsgen`
// adds) gets <kernel>.cu for each of its kernels and <package>_launch.go, a typed
// launcher per kernel, from `go generate` (see package gen). obsgen run
// fails, writing nothing, when a name the launchers would take is taken
// (a kernel called kernels, a package function called like a launcher)
// or a file in the way was not generated for the package; after writing
// it builds the package and fails if it does not compile. The package's
// other files may call the launchers: obsgen compiles only what Kernels
// needs to make them. obsgen emit and run print every file they write and
// remove, and say when nothing changed.
//
// Exit status: 0 on success (and for -h), 2 for a bad command line, 1 for
// any other failure.
package main

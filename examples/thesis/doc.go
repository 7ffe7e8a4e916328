// Package thesis holds kernels from the first Obsidian thesis (Svensson,
// "An embedded language for data-parallel programming", 2008) written with
// this library: rev, two rev, the riffle looked up in a constant table
// (tblLook rifftab, as the thesis' executeTab runs it), and odd-even
// transposition sort for one block.
package thesis

package check

import (
	"fmt"

	"github.com/obsidian-go/obsidian/ir"
)

// CheckAlign returns nil when a global array parameter of elem elements
// may declare its data aligned to bytes (see ir.Array.Align), or why not:
// bytes must be a power of two from elem's size to ir.MaxAlign, and the
// array in global memory.
func CheckAlign(space ir.Space, elem ir.Type, bytes int) error {
	switch {
	case space != ir.Global:
		return fmt.Errorf("an alignment of %d bytes on an array in %v memory: only global array parameters "+
			"declare one", bytes, space)
	case !elem.Valid():
		return fmt.Errorf("an alignment of %d bytes on an array of no valid element type (%v)", bytes, elem)
	case bytes <= 0 || bytes&(bytes-1) != 0:
		return fmt.Errorf("an alignment of %d bytes: want a power of two", bytes)
	case bytes < elem.Size():
		return fmt.Errorf("an alignment of %d bytes for elements of %v: want at least their size, %d", bytes, elem,
			elem.Size())
	case bytes > ir.MaxAlign:
		return fmt.Errorf("an alignment of %d bytes: want at most %d", bytes, ir.MaxAlign)
	}
	return nil
}

package ir_test

import (
	"testing"

	"github.com/obsidian-go/obsidian/ir"
)

// TestSpacesNamed checks that every memory space has a name of its own
// and a length fixed or not as it should be.
func TestSpacesNamed(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range ir.Spaces {
		name := s.String()
		if name == "space?" || seen[name] {
			t.Errorf("space %d is named %q", s, name)
		}
		seen[name] = true
		if fixed := (&ir.Array{Space: s}).FixedLen(); fixed != (s != ir.Global) {
			t.Errorf("an array in %v memory has FixedLen %v", s, fixed)
		}
	}
	if ir.Space(0).String() != "space?" {
		t.Errorf("the zero space is named %q", ir.Space(0).String())
	}
}

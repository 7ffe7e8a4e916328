package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// Update is the -update flag: rewrite golden files instead of comparing.
var Update = flag.Bool("update", false, "rewrite golden files instead of comparing with them")

// Check compares got with the file at path, or writes it there under
// -update.
func Check(t testing.TB, path, got string) {
	t.Helper()
	if *Update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./... -update writes it)", err)
	}
	if string(want) != got {
		t.Errorf("%s is out of date: go test ./... -update rewrites it; review the diff", path)
	}
}

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/internal/catalog"
	_ "github.com/obsidian-go/obsidian/internal/golden" // accept -update like every test binary
)

// obsgen runs the command in-process and returns its exit status and
// output.
func obsgen(args ...string) (code int, stdout, stderr string) {
	var out, errs bytes.Buffer
	code = run(args, &out, &errs)
	return code, out.String(), errs.String()
}

// TestHelp checks -h on obsgen and every subcommand exits 0 and documents
// every flag.
func TestHelp(t *testing.T) {
	for _, c := range []struct {
		args  []string
		flags []string
	}{
		{[]string{"-h"}, []string{"list", "emit", "run"}},
		{[]string{"list", "-h"}, nil},
		{[]string{"emit", "-h"}, []string{"-o", "-threads", "-go"}},
		{[]string{"run", "-h"}, []string{"-o", "PKGDIR"}},
	} {
		code, stdout, _ := obsgen(c.args...)
		if code != 0 {
			t.Errorf("obsgen %v: exit status %d, want 0", c.args, code)
		}
		if !strings.Contains(stdout, "Usage") {
			t.Errorf("obsgen %v printed no usage:\n%s", c.args, stdout)
		}
		for _, f := range c.flags {
			if !strings.Contains(stdout, f) {
				t.Errorf("obsgen %v does not mention %s:\n%s", c.args, f, stdout)
			}
		}
	}
}

// TestEmitMatchesGolden emits every catalogue kernel and compares the files
// with the golden ones.
func TestEmitMatchesGolden(t *testing.T) {
	dir := t.TempDir()
	if code, _, stderr := obsgen("emit", "-o", dir); code != 0 {
		t.Fatalf("obsgen emit: exit status %d: %s", code, stderr)
	}
	for _, e := range catalog.Entries() {
		got, err := os.ReadFile(filepath.Join(dir, e.Name+".cu"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(got, []byte(catalog.Header+"\n// Made by obsgen emit "+e.Name+".\n")) {
			t.Errorf("%s.cu does not begin with the header and its command:\n%.200s", e.Name, got)
		}
		want, err := os.ReadFile(filepath.Join("..", "..", "testdata", "golden", e.Name+".cu"))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("emitted %s.cu differs from testdata/golden", e.Name)
		}
	}
}

// TestEmitThreadsAndLaunchers rebuilds a kernel for another block size and
// writes launchers for it.
func TestEmitThreadsAndLaunchers(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := obsgen("emit", "-o", dir, "-threads", "128", "-go", "kernels", "rev256", "histogram")
	if code != 0 {
		t.Fatalf("obsgen emit: exit status %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "histogram has a fixed block size") {
		t.Errorf("no note that -threads does not apply to histogram: %q", stderr)
	}
	rev, err := os.ReadFile(filepath.Join(dir, "rev128.cu"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"// Made by obsgen emit -threads 128 rev256.", "__launch_bounds__(128) rev128("} {
		if !strings.Contains(string(rev), want) {
			t.Errorf("rev128.cu lacks %q", want)
		}
	}
	launchers, err := os.ReadFile(filepath.Join(dir, "kernels_launch.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		catalog.Header + "\n",
		"package kernels",
		"func Rev128(dev runtime.Device, cfg runtime.LaunchConfig, input *runtime.Buffer[uint32], output *runtime.Buffer[uint32]) error",
		"func Histogram(dev runtime.Device, cfg runtime.LaunchConfig, keys *runtime.Buffer[uint32], lo uint32, bins *runtime.Buffer[uint32], bad *runtime.Buffer[uint32]) error",
	} {
		if !strings.Contains(string(launchers), want) {
			t.Errorf("kernels_launch.go lacks %q", want)
		}
	}
}

// TestRunReportsMistakeAtUserLine runs the generator of a package whose
// kernel has a barrier in a thread's body: obsgen must fail naming the
// package's file and line.
func TestRunReportsMistakeAtUserLine(t *testing.T) {
	needGo(t)
	t.Parallel()
	code, _, stderr := obsgen("run", filepath.Join("testdata", "bad"))
	if code != 1 {
		t.Errorf("exit status %d, want 1", code)
	}
	if !strings.Contains(stderr, filepath.Join("testdata", "bad", "kernels.go")+":14") {
		t.Errorf("stderr does not name testdata/bad/kernels.go:14:\n%s", stderr)
	}
}

// TestRunWritesFilesThatVet generates a copy of a good package inside the
// module and checks the files are there and the package vets.
func TestRunWritesFilesThatVet(t *testing.T) {
	needGo(t) // not parallel: no other run's driver folder may be in the module
	dir, err := os.MkdirTemp("testdata", "good-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	src, err := os.ReadFile(filepath.Join("testdata", "good", "kernels.go"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "kernels.go"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := obsgen("run", dir); code != 0 {
		t.Fatalf("obsgen run: exit status %d:\n%s", code, stderr)
	}
	for _, name := range []string{"scale.cu", "shift_by.cu", "good_launch.go"} {
		content, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(content, []byte(catalog.Header+"\n")) {
			t.Errorf("%s does not begin with the generated-code header", name)
		}
	}
	vet := exec.Command("go", "vet", ".")
	vet.Dir = dir
	if out, err := vet.CombinedOutput(); err != nil {
		t.Errorf("go vet of the generated package: %v\n%s", err, out)
	}
	entries, err := os.ReadDir(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".obsgen-driver-") {
			t.Errorf("the driver's folder %s was left behind", e.Name())
		}
	}
}

// TestEmitSaysWhatItWrote emits two kernels, then again, then after one
// file changed: obsgen must list the files it wrote and say when the others
// (or all) were up to date.
func TestEmitSaysWhatItWrote(t *testing.T) {
	dir := t.TempDir()
	rev, hist := filepath.Join(dir, "rev256.cu"), filepath.Join(dir, "histogram.cu")
	for _, c := range []struct {
		before func()
		want   string
	}{
		{func() {}, "wrote " + hist + "\nwrote " + rev + "\n"},
		{func() {}, dir + ": nothing changed, 2 generated files up to date\n"},
		{func() {
			if err := os.WriteFile(rev, []byte(catalog.Header+"\n// Made by obsgen emit rev256.\nold\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, "wrote " + rev + "\n" + dir + ": 1 more generated file up to date\n"},
	} {
		c.before()
		code, stdout, stderr := obsgen("emit", "-o", dir, "rev256", "histogram")
		if code != 0 || stdout != c.want {
			t.Errorf("obsgen emit: exit status %d, printed %q, want %q; stderr:\n%s", code, stdout, c.want, stderr)
		}
	}
}

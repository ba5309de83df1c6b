package cli

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// Every command pays for the initialisation of every package linked in,
// so a small log's translation costs little more than the process start
// only while no package does much work in its init. The runtime reports
// each package init's allocations (GODEBUG=inittrace=1); they depend on
// the code, not on the machine's speed or load (from run to run they
// differ by a few hundred bytes at most), so the bounds below are
// checked without timing anything. A package that goes over them should
// do its work on first use (sync.OnceValue) instead.
func TestStartupInitAllocatesLittle(t *testing.T) {
	const (
		ours  = 32 << 10  // each zevo package
		other = 256 << 10 // each library (gojq and the Markdown parser come near)
		total = 1 << 20   // all of them (a JSON Schema library alone took 1.7 MB)
	)
	cmd := exec.Command(zevoBinary(t), "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("zevo --version: %v\n%s", err, stderr.String())
	}
	sum, pkgs := 0, 0
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		// init PKG @T ms, T ms clock, N bytes, N allocs
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" || f[8] != "bytes," {
			continue
		}
		n, err := strconv.Atoi(f[7])
		if err != nil {
			t.Fatalf("inittrace line %q: %v", sc.Text(), err)
		}
		pkgs++
		sum += n
		limit := other
		if strings.HasPrefix(f[1], "github.com/zevo/zevo/") {
			limit = ours
		}
		if n > limit {
			t.Errorf("package %s allocates %d bytes in its init, more than %d: make that work lazy", f[1], n, limit)
		}
	}
	if pkgs < 50 {
		t.Fatalf("only %d inittrace lines:\n%s", pkgs, stderr.String())
	}
	if sum > total {
		t.Errorf("package inits allocate %d bytes in all, more than %d", sum, total)
	}
}

package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoNetHTTP: net/http is not linked into zevo. Its package
// initialisation and size cost every command's start-up
// (docs/performance.md#start-up), and the one command that speaks HTTP,
// otel --endpoint, has its own small client (otel/post.go). Tests may use
// net/http and net/http/httptest freely: they are not in the binary.
func TestNoNetHTTP(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to list the dependencies with")
	}
	for _, tags := range []string{"", "urfave_cli_no_docs"} { // go install's build and the README's
		out, err := exec.Command("go", "list", "-deps", "-tags", tags, "github.com/zevo/zevo/cmd/zevo").Output()
		if err != nil {
			t.Fatalf("go list -deps -tags %q: %v", tags, err)
		}
		pkgs := strings.Fields(string(out))
		if len(pkgs) < 50 || !contains(pkgs, "github.com/zevo/zevo/otel") {
			t.Fatalf("go list -deps -tags %q: %d packages, without otel: not the list expected", tags, len(pkgs))
		}
		var linked []string
		for _, p := range pkgs {
			if p == "net/http" || strings.HasPrefix(p, "net/http/") {
				linked = append(linked, p)
			}
		}
		if len(linked) > 0 {
			t.Errorf("zevo (tags %q) links %s: its start-up cost falls on every command (docs/performance.md#start-up); `go list -deps -f '{{.ImportPath}}: {{.Imports}}' ./cmd/zevo` shows what brings it in", tags, strings.Join(linked, ", "))
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

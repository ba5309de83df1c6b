package otel

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/zevo/zevo/dialects"
	"github.com/zevo/zevo/inspect"
	"github.com/zevo/zevo/jsonl"
)

// exportRouted traces data as Tracer does, or, when routed is false,
// with today's path alone (no routing): the output and the lines
// reported as not exported.
func exportRouted(t *testing.T, name string, data []byte, opt Options, routed bool) ([]byte, []string) {
	t.Helper()
	var bad []string
	opt.Invalid = func(n int, err error) { bad = append(bad, fmt.Sprintf("%d: %v", n, err)) }
	b := NewBatch()
	tr := New(name, opt, func(td ptrace.Traces, _ *inspect.Run) { b.Add(td) })
	if !routed {
		tr.det = nil
	}
	lr := jsonl.NewReader(bytes.NewReader(data), name, nil)
	for {
		l, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		tr.Line(l)
	}
	tr.End()
	var out bytes.Buffer
	if err := WriteJSON(&out, b.Traces()); err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), bad
}

// TestRoutingKeepsTodaysPath: every Zero and EvoScientist sample of
// testdata (hostile ones included) is exported exactly as today's path
// alone exports it: routing sends none of its lines elsewhere.
func TestRoutingKeepsTodaysPath(t *testing.T) {
	for _, f := range samples(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		opt := Options{Clock: SyntheticClock}
		got, gotBad := exportRouted(t, f, data, opt, true)
		want, wantBad := exportRouted(t, f, data, opt, false)
		if !bytes.Equal(got, want) || fmt.Sprint(gotBad) != fmt.Sprint(wantBad) {
			t.Errorf("%s: routed, the output or the lines not exported differ (%q, want %q)", f, gotBad, wantBad)
		}
	}
	rng := rand.New(rand.NewPCG(5, 5))
	for range 300 {
		var lines []string
		for range 1 + rng.IntN(14) {
			lines = append(lines, pieces[rng.IntN(len(pieces))])
		}
		data := []byte(strings.Join(lines, "\n") + "\n")
		got, gotBad := exportRouted(t, "x", data, Options{Clock: SyntheticClock}, true)
		want, wantBad := exportRouted(t, "x", data, Options{Clock: SyntheticClock}, false)
		if !bytes.Equal(got, want) || fmt.Sprint(gotBad) != fmt.Sprint(wantBad) {
			t.Fatalf("routed, the output or the lines not exported differ on:\n%s", data)
		}
	}
}

// A capture read with --as its dialect (Options.Dialect) gives what auto
// gives.
func TestEventPathAsDialect(t *testing.T) {
	file := filepath.Join("..", "testdata", "captures", "codex", "agent-harness-shell-command.jsonl")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	auto, _ := exportRouted(t, file, data, Options{Clock: SyntheticClock}, true)
	codex, _ := dialects.ByName("codex")
	as, _ := exportRouted(t, file, data, Options{Clock: SyntheticClock, Dialect: codex}, true)
	if !bytes.Equal(auto, as) || !bytes.Contains(auto, []byte(`"execute_tool command_execution"`)) {
		t.Errorf("--as codex differs from auto:\n%s\n%s", as, auto)
	}
}

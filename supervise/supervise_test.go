//go:build unix

package supervise

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// start runs script under sh and waits for its first line, "ready".
func start(t *testing.T, script string) *Process {
	t.Helper()
	p, err := Start([]string{"/bin/sh", "-c", script}, nil, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	l, err := bufio.NewReader(p.Stdout()).ReadString('\n')
	if err != nil || l != "ready\n" {
		t.Fatalf("first line %q, %v", l, err)
	}
	return p
}

// A child that ignores SIGTERM is killed after the grace period; nothing
// of the group is left.
func TestStopKillsTheGroup(t *testing.T) {
	p := start(t, `(trap "" TERM INT; exec sleep 600) & echo ready; wait`)
	if !Running(p.Pgid()) {
		t.Fatal("the group is not running")
	}
	p.Stop(syscall.SIGTERM, 100*time.Millisecond, nil)
	if Running(p.Pgid()) {
		t.Fatal("a process of the group is still running")
	}
	if code, sig := p.Status(); sig != syscall.SIGTERM {
		t.Fatalf("status %d, signal %v; want killed by SIGTERM", code, sig)
	}
}

// A closed kill channel ends the wait at once (the grace period here is an hour).
func TestStopKill(t *testing.T) {
	p := start(t, `trap "" TERM; echo ready; while :; do sleep 0.05; done`)
	kill := make(chan struct{})
	close(kill)
	p.Stop(syscall.SIGTERM, time.Hour, kill)
	if _, sig := p.Status(); sig != syscall.SIGKILL || Running(p.Pgid()) {
		t.Fatalf("signal %v, running %v", sig, Running(p.Pgid()))
	}
}

// What the leader leaves behind in its group is stopped after it exits.
func TestCleanAfterExit(t *testing.T) {
	p := start(t, `(trap "" TERM; exec sleep 600) & echo ready; exit 3`)
	p.Clean(100*time.Millisecond, nil)
	if code, sig := p.Status(); code != 3 || sig != 0 {
		t.Fatalf("status %d, signal %v; want 3", code, sig)
	}
	if Running(p.Pgid()) {
		t.Fatal("the leader's child is still running")
	}
}

func TestStartErrors(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain")
	if err := os.WriteFile(plain, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name     string
		notFound bool
		msg      string
	}{
		{"no-such-program-anywhere", true, `cannot run "no-such-program-anywhere": no such program in $PATH`},
		{filepath.Join(dir, "missing"), true, "no such file"},
		{plain, false, "permission denied"},
		{"", true, "no such program"},
	} {
		_, err := Start([]string{c.name}, nil, os.Stderr)
		var se *StartError
		if !errors.As(err, &se) || se.NotFound != c.notFound || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: %v; want NotFound %v and %q", c.name, err, c.notFound, c.msg)
		}
	}
}

// Once the group is gone, what it wrote is read to its end however long
// the reader took before asking: time spent away from Read does not count.
func TestOutputReadWhateverThePace(t *testing.T) {
	p, err := Start([]string{"/bin/sh", "-c", `head -c 60000 /dev/zero | tr '\0' a; echo; echo last`}, nil, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stdout().Close()
	p.Clean(0, nil) // the group is gone; its output waits in the pipe
	time.Sleep(1500 * time.Millisecond)
	b, err := io.ReadAll(p.Stdout())
	if err != nil || len(b) != 60006 || !strings.HasSuffix(string(b), "a\nlast\n") {
		t.Fatalf("read %d bytes, %v; want all 60006", len(b), err)
	}
}

// A process outside the group (setsid) that holds the output open does
// not keep Read waiting for ever: once the group is gone and its output
// read, Read returns ErrHeld.
func TestOutputHeldOpen(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid here")
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	p, err := Start([]string{"/bin/sh", "-c", `setsid sh -c 'echo $$ >"$0.tmp"; mv "$0.tmp" "$0"; exec sleep 600' "$0" </dev/null 2>/dev/null &
		while [ ! -e "$0" ]; do sleep 0.01; done; echo bye`, pidFile}, nil, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stdout().Close()
	p.Clean(0, nil)
	if b, err := os.ReadFile(pidFile); err == nil {
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			defer syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	b, err := io.ReadAll(p.Stdout())
	if string(b) != "bye\n" || !errors.Is(err, ErrHeld) {
		t.Fatalf("read %q, %v; want ErrHeld", b, err)
	}
}

//go:build unix

package supervise

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
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

//go:build unix

package supervise

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
)

const supported = true

func newGroup() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

func signalGroup(pgid int, sig syscall.Signal) { _ = syscall.Kill(-pgid, sig) }

// Running reports whether a process of group pgid is still running. A
// zombie is not: where init does not reap orphans (in some containers) a
// dead process of the group can stay a zombie, and waiting for it would be
// waiting for nothing. Without /proc, any member counts.
func Running(pgid int) bool {
	if syscall.Kill(-pgid, 0) != nil {
		return false
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return true
	}
	want := strconv.Itoa(pgid)
	found := false
	for _, ent := range ents {
		if c := ent.Name()[0]; c < '0' || c > '9' {
			continue
		}
		data, err := os.ReadFile("/proc/" + ent.Name() + "/stat")
		if err != nil {
			continue
		}
		found = true
		// pid (comm) state ppid pgrp …; comm may hold spaces and ')'.
		f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
		if len(f) > 2 && f[2] == want && f[0] != "Z" && f[0] != "X" {
			return true
		}
	}
	return !found
}

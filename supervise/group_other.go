//go:build !unix

package supervise

import "syscall"

// Without process groups zevo exec cannot keep its promises: Start refuses.
const supported = false

func newGroup() *syscall.SysProcAttr { return nil }

func signalGroup(int, syscall.Signal) {}

// Running reports whether a process of group pgid is still running.
func Running(int) bool { return false }

package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"syscall"
	"testing"
)

// lastLines is the last n lines of out, each parsed (nil for none).
func lastLines(t *testing.T, out string, n int) []map[string]any {
	t.Helper()
	if out == "" {
		return nil
	}
	ls := outLines(out)
	ls = ls[max(0, len(ls)-n):]
	ms := make([]map[string]any, len(ls))
	for i, l := range ls {
		if err := json.Unmarshal([]byte(l), &ms[i]); err != nil {
			t.Fatalf("line %q: %v\n%s", l, err, out)
		}
	}
	return ms
}

// endOf sums up how output ends, for comparing with what a target's own
// CLI writes: the last line's type and what it says of the run's end
// (Zero: the error's code and run_end's status and exitCode; Claude Code:
// the result's subtype and errors; EvoScientist: an error's message).
func endOf(t *testing.T, to, out string) string {
	t.Helper()
	ms := lastLines(t, out, 2)
	if len(ms) == 0 {
		return "nothing"
	}
	last := ms[len(ms)-1]
	switch to {
	case "zero", "zero@1":
		if last["type"] != "run_end" || len(ms) < 2 {
			return "no run_end"
		}
		if n := strings.Count(out, `"type":"run_end"`); n != 1 {
			return fmt.Sprintf("%d run_ends", n)
		}
		b, _ := json.Marshal([]any{ms[0]["code"], last["status"], last["exitCode"]})
		return "run_end " + string(b)
	case "claude":
		if last["type"] != "result" || strings.Count(out, `"type":"result"`) != 1 {
			return "not one result, at the end"
		}
		b, _ := json.Marshal([]any{last["subtype"], last["errors"]})
		return "result " + string(b)
	}
	b, _ := json.Marshal([]any{last["type"], last["message"]})
	return string(b)
}

// Stopped by SIGINT or SIGTERM, exec ends as the target's own CLI ends
// when so stopped: Zero closes its open run, or a run it had not begun,
// interrupted (exit 130 for either signal) and keeps one that had ended;
// EvoScientist's CLI writes nothing more and exits 130 for SIGINT, 143
// for SIGTERM, whatever it wrote before; Claude Code's target ends its
// open run with an error result.
func TestExecSignalEndsTheRunAsTheTargetsCLI(t *testing.T) {
	const (
		zeroCancelled  = `run_end ["interrupted","interrupted",130]`
		zeroEnded      = `run_end ["provider_error","error",3]`
		claudeCanceled = `result ["error_during_execution",["run cancelled by signal"]]`
	)
	// The agent's run is open (an EvoScientist run's start), not begun
	// (nothing written), or ended (a Zero run that failed, exitCode 3)
	// when the signal comes; it ends on the signal without writing more.
	for _, c := range []struct {
		to, agent string
		sig       syscall.Signal
		code      int
		end       string
	}{
		{"zero", "open", syscall.SIGINT, 130, zeroCancelled},
		{"zero", "open", syscall.SIGTERM, 130, zeroCancelled},
		{"zero", "quiet", syscall.SIGINT, 130, zeroCancelled},
		{"zero", "quiet", syscall.SIGTERM, 130, zeroCancelled},
		{"zero", "ended", syscall.SIGINT, 3, zeroEnded},
		{"zero", "ended", syscall.SIGTERM, 3, zeroEnded},
		{"zero@1", "open", syscall.SIGINT, 130, zeroCancelled},
		{"zero@1", "open", syscall.SIGTERM, 130, zeroCancelled},
		{"zero@1", "quiet", syscall.SIGINT, 130, zeroCancelled},
		{"zero@1", "quiet", syscall.SIGTERM, 130, zeroCancelled},
		{"zero@1", "ended", syscall.SIGINT, 3, zeroEnded},
		{"zero@1", "ended", syscall.SIGTERM, 3, zeroEnded},
		{"evosci", "open", syscall.SIGINT, 130, `["subagent_text",null]`},
		{"evosci", "open", syscall.SIGTERM, 143, `["subagent_text",null]`},
		{"evosci", "quiet", syscall.SIGINT, 130, "nothing"},
		{"evosci", "quiet", syscall.SIGTERM, 143, "nothing"},
		{"evosci", "ended", syscall.SIGINT, 130, `["error","503 from provider"]`},
		{"evosci", "ended", syscall.SIGTERM, 143, `["error","503 from provider"]`},
		{"claude", "open", syscall.SIGINT, 130, claudeCanceled},
		{"claude", "open", syscall.SIGTERM, 130, claudeCanceled},
		{"claude", "quiet", syscall.SIGINT, 130, claudeCanceled},
		{"claude", "quiet", syscall.SIGTERM, 130, claudeCanceled},
		{"claude", "ended", syscall.SIGINT, 1, `result ["error_during_execution",["503 from provider"]]`},
		{"claude", "ended", syscall.SIGTERM, 1, `result ["error_during_execution",["503 from provider"]]`},
	} {
		t.Run(c.to+" "+c.agent+" "+c.sig.String(), func(t *testing.T) {
			r, pgid := signalExec(t, []syscall.Signal{c.sig}, "exec", "--to", c.to, "--", "AGENT", c.agent)
			checkGroupGone(t, pgid)
			if got := endOf(t, c.to, r.stdout); r.code != c.code || got != c.end {
				t.Fatalf("exit %d, output ends %s; want %d, %s\nstdout:\n%s\nstderr:\n%s", r.code, got, c.code, c.end, r.stdout, r.stderr)
			}
		})
	}
}

// An agent that ends without ending its run (or writing any event)
// leaves exec the exit status the target's CLI has for a run that did
// not finish: Zero's 4 (exitIncomplete); EvoScientist's CLI and Claude
// Code's have no such code, a failed run is 1.
func TestExecRunLeftOpenExitsAsTheTargetsCLI(t *testing.T) {
	for _, c := range []struct {
		to    string
		agent []string
		code  int
		end   string
	}{
		{"zero", []string{"cut"}, 4, `run_end ["incomplete","incomplete",4]`},
		{"zero", []string{"silent", "0"}, 4, `run_end ["incomplete","incomplete",4]`},
		{"zero@1", []string{"cut"}, 4, `run_end ["incomplete","incomplete",4]`},
		{"evosci", []string{"cut"}, 1, `["subagent_text",null]`}, // EvoScientist to EvoScientist: as written
		{"evosci", []string{"kill"}, 1, `["subagent_text",null]`},
		{"evosci", []string{"silent", "0"}, 1, `["error","agent exited with status 0 without writing any event"]`},
		{"claude", []string{"cut"}, 1, `result ["error_during_execution",["the input ended before the run finished"]]`},
		{"claude", []string{"silent", "0"}, 1, `result ["error_during_execution",["agent exited with status 0 without writing any event"]]`},
	} {
		t.Run(c.to+" "+strings.Join(c.agent, " "), func(t *testing.T) {
			r := runExecCmd(t, "", append([]string{"exec", "--to", c.to, "--", "AGENT"}, c.agent...)...)
			if got := endOf(t, c.to, r.stdout); r.code != c.code || got != c.end {
				t.Fatalf("exit %d, output ends %s; want %d, %s\nstdout:\n%s\nstderr:\n%s", r.code, got, c.code, c.end, r.stdout, r.stderr)
			}
		})
	}
}

// A signal that comes as AGENT starts (here AGENT sends it to zevo as its
// first act) is passed on to AGENT's group like any other: zevo does not
// stop on its own and leave the group running.
func TestExecSignalAsTheAgentStartsReachesItsGroup(t *testing.T) {
	for _, sig := range []string{"INT", "TERM"} {
		for i := 0; i < 5; i++ {
			r := runExecCmd(t, "", "exec", "--to", "zero", "--", "AGENT", "signal-zevo", sig)
			if got := endOf(t, "zero", r.stdout); r.code != 130 || got != `run_end ["interrupted","interrupted",130]` {
				t.Fatalf("SIG%s: exit %d, output ends %s; want 130, an interrupted run_end\nstdout:\n%s\nstderr:\n%s", sig, r.code, got, r.stdout, r.stderr)
			}
			checkGroupGone(t, agentPid(t, r.dir))
		}
	}
}

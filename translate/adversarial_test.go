package translate

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/zevo/zevo/dialects/zero/zerotest"
)

// Adversarial streams: both protocols mixed, runs cut and concatenated,
// calls announced again, odd ids, unknown types and fields, bad values,
// and secrets at every depth and place. Every output line must be one the
// target's consumers read, every id they key on distinct, and no secret
// may survive redaction.

// advSecret is a secret value planted in the stream; it must not appear in
// redacted output. Each is unique, so a match is the planted one.
type advGen struct {
	r       *rand.Rand
	secrets []string
	n       int
}

func (g *advGen) secretValue() string {
	g.n++
	s := fmt.Sprintf("hunter%dzq", g.n)
	g.secrets = append(g.secrets, s)
	return s
}

// sensitiveKeys are spellings Zero's redaction takes as sensitive.
var sensitiveKeys = []string{"api_key", "API-Key", "apiKey", "client_secret", "x_access_token", "Authorization",
	"PASSWORD", "refreshToken", "id_token", "private-key", "token", "Secret", "credentials", "pwd", "my.openai.apiKey"}

// patternSecret is a string whose secret Zero's patterns find, the secret
// recorded; escaped writes its dash as \u002d in the JSON text.
func (g *advGen) patternSecret() (text string, escaped bool) {
	g.n++
	body := fmt.Sprintf("Q%dabcdefghijklmnopqrstuv", g.n)
	g.secrets = append(g.secrets, body)
	switch g.r.Intn(4) {
	case 0:
		return "see sk-" + body + " here", false
	case 1:
		return "Authorization: Bearer " + body, false
	case 2:
		return "api_key=" + body, false
	}
	return "sk-" + body, true
}

// value is a random JSON value, secrets planted at any depth.
func (g *advGen) value(depth int) any {
	switch k := g.r.Intn(7); {
	case depth > 3 || k == 0:
		return []any{"x", 1.5, true, nil, json.Number("99999999999999999999")}[g.r.Intn(5)]
	case k == 1:
		s, _ := g.patternSecret()
		return s
	case k == 2:
		var a []any
		for range 1 + g.r.Intn(3) {
			a = append(a, g.value(depth+1))
		}
		return a
	default:
		return g.object(depth + 1)
	}
}

func (g *advGen) object(depth int) map[string]any {
	m := map[string]any{}
	for range 1 + g.r.Intn(3) {
		if g.r.Intn(3) == 0 {
			m[sensitiveKeys[g.r.Intn(len(sensitiveKeys))]] = []any{g.secretValue(), map[string]any{"v": g.secretValue()}, []any{g.secretValue()}}[g.r.Intn(3)]
		} else {
			m[fmt.Sprintf("k%d", g.r.Intn(5))] = g.value(depth)
		}
	}
	return m
}

// str is a string field's value: plain, a pattern secret, or odd.
func (g *advGen) str() any {
	switch g.r.Intn(6) {
	case 0:
		s, _ := g.patternSecret()
		return s
	case 1:
		return "wr\u00efte<x>&\u2028"
	}
	return "plain"
}

// secretIDs are ids that hold a secret: redacted, they must stay distinct.
var secretIDs = []string{"sk-AAAAAAAAAAAAAAAAAAAAAAAA1", "sk-AAAAAAAAAAAAAAAAAAAAAAAA2"}

var advIDs = []any{"c1", "c2", "c3", "", "\u00e9t\u00e9 1", strings.Repeat("i", 300), "c1", secretIDs[0], secretIDs[1], secretIDs[0], secretIDs[1]}

func (g *advGen) id() any { return advIDs[g.r.Intn(len(advIDs))] }

func (g *advGen) name() string {
	return []string{"read_file", "execute", "write_todos", "wr\u00efte"}[g.r.Intn(4)]
}

// evo writes an EvoScientist event as its sink does.
func (g *advGen) evo() string {
	var kv []any
	switch g.r.Intn(14) {
	case 0:
		kv = []any{"type", "thinking", "content", g.str(), "id", 0}
	case 1:
		kv = []any{"type", "text", "content", g.str()}
	case 2, 3:
		kv = []any{"type", "tool_call", "name", g.name(), "args", g.object(0), "id", g.id()}
	case 4, 5:
		kv = []any{"type", "tool_result", "name", g.name(), "content", g.str(), "success", g.r.Intn(2) == 0}
		if g.r.Intn(3) > 0 {
			kv = append(kv, "id", g.id())
		}
	case 6:
		var reqs []any
		for range g.r.Intn(3) {
			reqs = append(reqs, map[string]any{"name": g.name(), "args": g.object(0), "description": g.str()})
		}
		kv = []any{"type", "interrupt", "action_requests", reqs, "review_configs", []any{}}
		if g.r.Intn(4) > 0 {
			kv = append(kv, "interrupt_id", g.id())
		}
	case 7:
		kv = []any{"type", "usage_stats", "input_tokens", []any{10, json.Number("99999999999999999999"), json.Number("1e30")}[g.r.Intn(3)], "output_tokens", 5}
	case 8:
		kv = []any{"type", "done", "content", g.str(), "response", g.str()}
	case 9:
		kv = []any{"type", "error", "message", g.str()}
	case 10:
		kv = []any{"type", "subagent_tool_call", "subagent", "s", "name", g.name(), "args", g.object(0), "id", g.id(), "instance_id", "i1"}
	case 11:
		kv = []any{"type", []string{"auth_refresh", "panel_dispatch_start", "ask_user"}[g.r.Intn(3)], sensitiveKeys[g.r.Intn(len(sensitiveKeys))], g.secretValue(), "extra", g.object(0)}
	case 12:
		kv = []any{"type", "tool_call", "name", g.name(), "args", map[string]any{"n": "NaN"}, "id", g.id()}
	default:
		kv = []any{"type", "text", "content", "x", sensitiveKeys[g.r.Intn(len(sensitiveKeys))], g.secretValue()}
	}
	line := evoLine(kv...)
	// NaN as Python writes it; a secret's dash escaped in the JSON text.
	line = strings.ReplaceAll(line, `"NaN"`, "NaN")
	return strings.ReplaceAll(line, "sk-Q", `sk\u002dQ`)
}

// zero writes a Zero event as Zero does (keys sorted, omitempty).
func (g *advGen) zero(runID string) string {
	m := map[string]any{"schemaVersion": 2, "runId": runID}
	switch g.r.Intn(16) {
	case 0:
		m["type"], m["sessionId"] = "run_start", "zero_1"
	case 1:
		m["type"], m["delta"] = "text", g.str()
	case 2:
		m["type"], m["delta"] = "reasoning", g.str()
	case 3, 4:
		m["type"], m["id"], m["name"], m["args"], m["sideEffect"] = "tool_call", g.id(), g.name(), g.object(0), "read"
	case 5:
		m["type"], m["id"], m["name"], m["action"], m["permission"], m["permissionGranted"] = "permission_request", g.id(), g.name(), "prompt", "prompt", false
		m["risk"] = map[string]any{"level": "high", "reason": g.str()}
		m["reason"] = g.str()
	case 6, 7:
		m["type"], m["id"], m["name"], m["status"], m["output"], m["truncated"] = "tool_result", g.id(), g.name(), "ok", g.str(), false
		m["meta"] = map[string]any{"token": g.secretValue(), "k": "v"}
	case 8:
		m["type"], m["promptTokens"], m["completionTokens"], m["totalTokens"] = "usage", 1, json.Number("99999999999999999999"), 3
	case 9:
		m["type"], m["text"] = "final", g.str()
	case 10:
		m["type"], m["code"], m["message"], m["recoverable"] = "error", "provider_error", g.str(), false
	case 11:
		m["type"], m["status"], m["exitCode"] = "run_end", "success", 0
	case 12:
		// v1, with what only v1 has
		m["schemaVersion"], m["type"], m["id"], m["name"], m["action"], m["permission"], m["permissionGranted"] = 1, "permission_decision", g.id(), g.name(), "deny", "deny", false
		m["violation"] = map[string]any{"code": "policy_denied", "action": "deny", "risk": map[string]any{"level": "high"}, "reason": g.str(), "recoverable": false}
		m["grant"] = map[string]any{"toolName": "x", "decision": "deny", "approvedAt": "t", "maxAutonomy": "high"}
		m["risk"] = map[string]any{"level": "high"}
	case 13:
		m = map[string]any{"schemaVersion": 2, "type": "prompt", "content": g.str()}
	case 14:
		m["type"], m["future"] = "text", g.object(0)
		m[sensitiveKeys[g.r.Intn(len(sensitiveKeys))]] = g.secretValue()
	default:
		m["type"], m["id"], m["name"], m["status"], m["output"], m["truncated"] = "tool_result", g.id(), g.name(), "ok", "o", false
		m["display"] = map[string]any{"summary": g.str(), "kind": "k", "x": g.object(0)}
	}
	for k, v := range m {
		if v == "" {
			delete(m, k) // omitempty
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// stream is a random mix: EvoScientist runs, Zero runs, cut anywhere.
func (g *advGen) stream() string {
	var lines []string
	for range 1 + g.r.Intn(4) {
		if g.r.Intn(2) == 0 {
			for range g.r.Intn(14) {
				lines = append(lines, g.evo())
			}
			continue
		}
		id := []string{"r1", "r2", "run_20260101000000_abcdef"}[g.r.Intn(3)]
		for range g.r.Intn(8) {
			lines = append(lines, g.zero(id))
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

func TestAdversarialStreamsReadByTargetConsumers(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 300
	}
	g := &advGen{r: rand.New(rand.NewSource(9))}
	for range n {
		g.secrets = append(g.secrets[:0], "AAAAAAAAAAAAAAAAAAAAAAAA")
		in := g.stream()
		for _, to := range []Format{Zero, Zero1} {
			out, _, _ := lines(t, Options{To: to, Redact: true, RunID: "R"}, in)
			checkZeroConsumer(t, in, to, out)
			checkNoSecret(t, in, to, out, g.secrets)
		}
		out, _, _ := lines(t, Options{To: EvoSci}, in)
		checkEvoConsumer(t, in, out)
		out, _, _ = lines(t, Options{To: EvoSci, Redact: true}, in)
		checkNoSecret(t, in, EvoSci, out, g.secrets)
	}
}

func checkZeroConsumer(t *testing.T, in string, to Format, out []string) {
	t.Helper()
	perms, calls := map[string]bool{}, map[string]bool{}
	for _, l := range out {
		decode := zerotest.Decode
		if to == Zero1 {
			decode = zerotest.DecodeV1
		}
		ev, err := decode([]byte(l))
		if err != nil {
			t.Fatalf("--to %s: Zero's decoder refuses %v\n%s\ninput:\n%s", to, err, l, in)
		}
		if !zeroIDPattern(ev.RunID) {
			t.Fatalf("--to %s: runId %q Zero cannot write\n%s\ninput:\n%s", to, ev.RunID, l, in)
		}
		if ev.Type == "run_end" {
			clear(perms)
			clear(calls)
		}
		if ev.Type == "tool_call" && ev.ID != "" && strings.HasPrefix(ev.RunID, "R") {
			if calls[ev.ID] {
				t.Fatalf("--to %s: tool_call id %q twice in its run\n%s\ninput:\n%s", to, ev.ID, l, in)
			}
			calls[ev.ID] = true
		}
		// The ids of the runs zevo writes from EvoScientist (Zero's own
		// pass through as they are).
		if ev.Type == "permission_request" && strings.HasPrefix(ev.RunID, "R") {
			if ev.ID == "" || perms[ev.ID] {
				t.Fatalf("--to %s: permission_request id %q empty or seen before in its run\n%s\ninput:\n%s", to, ev.ID, l, in)
			}
			perms[ev.ID] = true
		}
	}
}

func checkNoSecret(t *testing.T, in string, to Format, out []string, secrets []string) {
	t.Helper()
	all := strings.Join(out, "\n")
	for _, s := range secrets {
		if strings.Contains(all, s) {
			t.Fatalf("--to %s: secret %q survived\n%s\ninput:\n%s", to, s, all, in)
		}
	}
}

// checkEvoConsumer reads output as EvoScientist's stream state does
// (stream/state.py handle_event): the fields it indexes must be there,
// with the types it adds to or calls methods on.
func checkEvoConsumer(t *testing.T, in string, out []string) {
	t.Helper()
	for _, l := range out {
		var ev map[string]any
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatalf("--to evosci: %v\n%s", err, l)
		}
		need := func(keys ...string) {
			for _, k := range keys {
				if _, ok := ev[k]; !ok {
					t.Fatalf("--to evosci: %s without %q, which EvoScientist's stream state indexes\n%s\ninput:\n%s", ev["type"], k, l, in)
				}
			}
		}
		str := func(k string) {
			if v, ok := ev[k]; ok {
				if _, ok := v.(string); !ok {
					t.Fatalf("--to evosci: %s.%s is %T; EvoScientist's stream state appends it to a string\n%s", ev["type"], k, v, l)
				}
			}
		}
		switch ev["type"] {
		case "thinking", "text", "summarization":
			str("content")
		case "tool_call":
			need("id")
			if a, ok := ev["args"]; ok {
				if _, ok := a.(map[string]any); !ok && ev["name"] == "write_todos" {
					t.Fatalf("--to evosci: write_todos args %T, not an object\n%s", a, l)
				}
			}
		case "tool_result":
			need("id")
			str("content")
		case "subagent_start":
			need("name", "instance_id", "tool_call_id")
		case "subagent_tool_call", "subagent_tool_result":
			need("instance_id", "id")
		case "subagent_end":
			need("instance_id")
		case "done":
			str("response")
		}
	}
}

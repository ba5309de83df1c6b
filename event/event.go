// Package event is the one model of what agents stream: every dialect's
// decoder turns its producer's lines into these events, and every encoder
// writes them back out in its producer's serialization. An event keeps the
// line it came from (Raw), so what the model does not name is never lost:
// `--unmapped keep` and a pass-through of one dialect into itself read it
// from there.
package event

import (
	"encoding/json"
	"math/big"
	"unsafe"

	"github.com/zevo/zevo/jsonl"
)

// Kind is what an event is.
type Kind uint8

const (
	Other              Kind = iota // a line the model does not name; Raw keeps it
	RunStart                       // Session, Model, Cwd, Provider
	Prompt                         // the user's message that starts or steers a run (Text)
	Text                           // a delta of the answer's text (Text)
	Reasoning                      // a delta of the model's reasoning (Text)
	ToolCall                       // Tool: ID, Name, Args, Effect
	ToolResult                     // Tool: ID, Name, Failed, Output, Truncated
	PermissionRequest              // Permission: ID, Tool, Reason
	PermissionDecision             // Permission: ID, Decision
	Usage                          // Usage
	Final                          // the run's final answer (Text)
	Warning                        // Text
	Error                          // Text, Code
	Checkpoint                     // Text: the producer's summary of it
	RunEnd                         // Status, ExitCode, Word
	SubStart                       // a sub-agent starts: Sub, SubName, Text (its task)
	SubEnd                         // a sub-agent is done: Sub, SubName
	Compaction                     // the producer summarizes its context to go on: Text (the summary; "" when it starts)
	Notice                         // the producer's word on its own progress: Label, Text (EvoScientist's tool selection)
)

var kindNames = [...]string{"other", "run_start", "prompt", "text", "reasoning", "tool_call", "tool_result",
	"permission_request", "permission_decision", "usage", "final", "warning", "error", "checkpoint", "run_end",
	"sub_start", "sub_end", "compaction", "notice"}

// Own reports a kind the other producers have no event for: Other, and a
// producer's word on its own progress (SubStart, SubEnd, Compaction,
// Notice). An encoder keeps such an event's line as it keeps an Other's
// (--unmapped keep).
func (k Kind) Own() bool { return k == Other || k >= SubStart }

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(?)"
}

// Event is one event of a run. Which fields are set depends on Kind; the
// rest are zero. A decoder may produce several events from one line (a
// Claude assistant message with text and a tool call) or none (a line
// that only carries state); each keeps the whole line in Raw.
type Event struct {
	Kind    Kind
	Dialect string // the name of the dialect whose decoder made it
	Type    string // the source line's own type ("assistant", "item.completed")
	// Variant is the version or variant of the dialect the line is
	// written in, as users name it (one of the dialect's Aliases:
	// "zero@1"), when the dialect has several; "" when it has one.
	Variant string
	Line    int    // the source line's number in its input
	Raw     []byte // the source line, shared by the events made from it

	// Run is the producer's id of the run or session the event belongs
	// to, when its lines carry one ("" when they do not).
	Run string
	// Sub names the sub-agent that made the event ("" for the main
	// agent): the parent tool call's id, or the sub-agent's name.
	Sub string
	// SubName is the sub-agent's name for people ("researcher"), when
	// Sub is an id of one instance of it.
	SubName string
	// Aside: the event neither starts, cuts nor ends a run. It belongs to
	// the open run, else to the run that ended just before it (a late
	// line: EvoScientist's done after the error that ended its run,
	// Claude's rate-limit notice after a result), else to none (a hook's
	// line before a run starts).
	Aside bool

	// RunStart.
	Session, Model, Cwd, Provider string
	// APIModel is the model's id at its provider, when the producer
	// states it apart from Model (a price table may know only one).
	APIModel string

	// Prompt, Text, Reasoning, Final, Warning, Error, Checkpoint,
	// SubStart, Compaction, Notice.
	Text string
	Code string // Error: the producer's error code or kind, if any
	// Label is what the event is, in the producer's words for people,
	// when it has its own: a Notice's ("tools selected"), a Checkpoint's
	// ("checkpoint 3"), a PermissionRequest's ("approval needed").
	Label string

	Tool       *Tool       // ToolCall, ToolResult
	Permission *Permission // PermissionRequest, PermissionDecision
	Usage      *Tokens     // Usage

	// RunEnd.
	Status   Status
	ExitCode *int
	// StatusWord is the producer's own word for how the run ended, as it
	// wrote it ("done", "spec_review_required"), when it has one: Status
	// is the model's reading of it, the same words for every dialect.
	StatusWord string
	// StatusStated: the line states StatusWord in a field of its own (a
	// process's status), rather than the word naming the end by its event
	// ("done", "error") or by zevo's reading ("input").
	StatusStated bool
}

// Tool is a tool call or its result.
type Tool struct {
	ID     string
	Name   string
	Args   json.RawMessage // ToolCall: the arguments as the producer wrote them (an object, or absent)
	Effect Effect          // ToolCall: what running it does, from the tool's name (see Effects)
	// Again: ToolCall: the producer announced this call (its id) before
	// in the run (EvoScientist 0.1.x repeats every call before each
	// result): the same call, not another.
	Again bool

	Failed    bool   // ToolResult: the tool reported a failure
	Output    string // ToolResult: its output, or its error message
	Truncated bool   // ToolResult: the producer cut the output
	// OutputJSON, when not "", is the output as its line spells it: the
	// inside of a JSON string, escapes and all; Output is then "". A
	// decoder gives it only when asked (DecodeOptions.Spelled), for an
	// encoder that writes the output from its spelling (Dialect.Respells)
	// rather than unescaped and escaped again. OutputText reads either.
	OutputJSON string
}

// OutputText is the tool's output, unescaped from OutputJSON when the
// decoder kept its spelling.
func (t *Tool) OutputText() string {
	if t.OutputJSON == "" {
		return t.Output
	}
	text := jsonl.AppendUnescaped(nil, t.OutputJSON)
	return unsafe.String(unsafe.SliceData(text), len(text))
}

// Permission is a request to run a tool, or the answer to one.
type Permission struct {
	ID       string // the tool call it is about
	Tool     string
	Reason   string   // the event's own; Why falls back on the sandbox's
	Decision Decision // PermissionDecision
	// Action is the producer's own word for what was asked or decided
	// (prompt, allow, deny, auto), when its line states one: the event's
	// Kind and Decision are the model's reading of it.
	Action string
	// Auto: the producer records a check it made without asking anyone
	// (a policy or the permission mode decided), rather than a request to
	// the user or the user's answer.
	Auto bool
	// Interrupt is the producer's id of the pause that asks, when it
	// names the pause apart from the call (one pause may ask for several
	// calls); ID is then this id when the producer names no call.
	Interrupt string
	// What the producer states of the check beyond the above, when it
	// does: the permission mode in force, whether it says the tool may
	// run (nil: it does not say), and the request's and the decision's
	// reasons apart (Reason is the event's own: the decision's on a
	// decision).
	Mode                          string
	Granted                       *bool
	RequestReason, DecisionReason string

	// What the producer states besides, when it does.
	Effect    Effect          // the call's side effect
	Risk      string          // the call's risk level
	Args      json.RawMessage // the call's arguments
	Block     *Block          // the sandbox's refusal that asked it or answered it
	Questions []Question      // a question to the user: non-nil, one per question asked
}

// Why is the permission's reason: its own, else the sandbox's.
func (p *Permission) Why() string {
	if p.Reason == "" && p.Block != nil {
		return p.Block.Reason
	}
	return p.Reason
}

// Block is a sandbox's refusal of a tool call.
type Block struct{ Code, Reason, Path string }

// Question is one question put to the user, with the answers offered.
type Question struct {
	Text    string
	Choices []string
}

// Decision answers a permission request.
type Decision uint8

const (
	Pending Decision = iota
	Allowed
	Denied
	Cancelled
)

// Tokens is what a model used. Counts are those the producer states; a
// count it does not state is 0 and its Has bit is clear, so "none" and
// "not said" stay apart.
//
// Scope says how usage events add up. Message: each counts once, summed
// over the run. Run: the run's total so far, replacing whatever came
// before it (Claude's result, which is the run's truth where the
// per-message snapshots undercount).
type Tokens struct {
	Scope      Scope
	Input      int64 // prompt tokens, cache reads and writes not included
	Output     int64 // completion tokens, reasoning included
	CacheRead  int64
	CacheWrite int64
	Reasoning  int64 // of Output: the part spent reasoning
	// StatedTotal is the total the producer states itself (HasTotal),
	// which may count what the others do not name; Total() is every
	// token counted once whatever it states.
	StatedTotal int64
	Has         Has
	// Past holds, exactly, the counts the producer states that are no
	// counts: of 2^63 or more, which the counts above cannot hold, or
	// below 0 (theirs is then 0 and their Has bit clear: the line is a
	// bad one); nil when there are none.
	Past *PastCounts
	// CostUSD is the producer's own cost of these tokens, when it states
	// one; never computed here (the price table is the reader's).
	CostUSD *float64
	Model   string // the model that used them, when the producer says
}

// Scope: see Tokens.
type Scope uint8

const (
	ScopeMessage Scope = iota
	ScopeRun
)

// Has says which counts of Tokens the producer stated.
type Has uint8

const (
	HasInput Has = 1 << iota
	HasOutput
	HasCacheRead
	HasCacheWrite
	HasReasoning
	HasTotal // StatedTotal
)

// PastCounts are the counts of a usage event that are no int64 counts
// (past int64, or below 0), each nil when it is one.
type PastCounts struct {
	Input, Output, Total *big.Int
	// InputRaw and OutputRaw are a count as the producer spelled it when
	// its value does not say it (-0, which is 0), "" otherwise: a
	// translation writes it back as it was.
	InputRaw, OutputRaw string
}

// Total is every token counted once: input, cache reads and writes,
// output (reasoning is part of output).
func (t *Tokens) Total() int64 { return t.Input + t.CacheRead + t.CacheWrite + t.Output }

// Add sums o into t (for ScopeMessage usage). A stated total and counts
// past int64 are each event's own: they are not summed, and t states no
// total after it.
func (t *Tokens) Add(o *Tokens) {
	t.Input += o.Input
	t.Output += o.Output
	t.CacheRead += o.CacheRead
	t.CacheWrite += o.CacheWrite
	t.Reasoning += o.Reasoning
	t.Has = (t.Has | o.Has) &^ HasTotal
	t.StatedTotal = 0
	if o.CostUSD != nil {
		c := *o.CostUSD
		if t.CostUSD != nil {
			c += *t.CostUSD
		}
		t.CostUSD = &c
	}
}

// Status is how a run ended.
type Status string

const (
	StatusOpen        Status = ""            // not ended yet
	StatusSuccess     Status = "success"     // the agent finished its work
	StatusError       Status = "error"       // the agent or its model failed
	StatusCancelled   Status = "cancelled"   // stopped by the user or a signal
	StatusIncomplete  Status = "incomplete"  // the stream ended inside the run
	StatusMaxTurns    Status = "max_turns"   // stopped at a turn limit
	StatusMaxBudget   Status = "max_budget"  // stopped at a cost limit
	StatusBlocked     Status = "blocked"     // refused by a policy
	StatusInterrupted Status = "interrupted" // paused for an answer (a permission, a question)
	StatusEnded       Status = "ended"       // ended, and the producer did not say how
)

// Failed reports a status that is not a success.
func (s Status) Failed() bool { return s != StatusSuccess && s != StatusOpen && s != StatusEnded }

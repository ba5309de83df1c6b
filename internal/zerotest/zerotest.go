// Package zerotest decodes Zero output events as Zero's own struct does, for tests of what zevo writes.
package zerotest

import (
	"bytes"
	"encoding/json"
)

// Event has the fields and Go types of Zero's output event (Zero
// 0.8.0's stream-json event, as PROTOCOLS.md lists it). Decoding with
// unknown fields disallowed is what Zero's own decoder does.
type Event struct {
	SchemaVersion     int                             `json:"schemaVersion"`
	Type              string                          `json:"type"`
	RunID             string                          `json:"runId"`
	SessionID         string                          `json:"sessionId"`
	Cwd               string                          `json:"cwd"`
	Provider          string                          `json:"provider"`
	Model             string                          `json:"model"`
	APIModel          string                          `json:"apiModel"`
	Delta             string                          `json:"delta"`
	ID                string                          `json:"id"`
	Name              string                          `json:"name"`
	Args              any                             `json:"args"`
	Action            string                          `json:"action"`
	Permission        string                          `json:"permission"`
	PermissionGranted *bool                           `json:"permissionGranted"`
	PermissionMode    string                          `json:"permissionMode"`
	Autonomy          string                          `json:"autonomy"`
	SideEffect        string                          `json:"sideEffect"`
	Reason            string                          `json:"reason"`
	DecisionReason    string                          `json:"decisionReason"`
	Risk              *Risk                           `json:"risk"`
	Block             *Block                          `json:"block"`
	Violation         *Block                          `json:"violation"` // v1's name for block
	GrantMatched      bool                            `json:"grantMatched"`
	Grant             *Grant                          `json:"grant"`
	Status            string                          `json:"status"`
	Output            string                          `json:"output"`
	Truncated         *bool                           `json:"truncated"`
	Redacted          *bool                           `json:"redacted"`
	ChangedFiles      []string                        `json:"changedFiles"`
	Display           *struct{ Summary, Kind string } `json:"display"`
	Checkpoint        *Checkpoint                     `json:"checkpoint"`
	Meta              map[string]string               `json:"meta"`
	PromptTokens      *int                            `json:"promptTokens"`
	CompletionTokens  *int                            `json:"completionTokens"`
	TotalTokens       *int                            `json:"totalTokens"`
	CostUSD           *float64                        `json:"costUsd"`
	Text              string                          `json:"text"`
	Message           string                          `json:"message"`
	Code              string                          `json:"code"`
	Recoverable       *bool                           `json:"recoverable"`
	ExitCode          *int                            `json:"exitCode"`
}

// EventV1 is the v1 event: its Grant had maxAutonomy.
type EventV1 struct {
	Event
	Grant *struct {
		Grant
		MaxAutonomy string `json:"maxAutonomy"`
	} `json:"grant"`
}

// Grant is a permission grant.
type Grant struct {
	ToolName   string `json:"toolName"`
	Scope      string `json:"scope"`
	ScopeKind  string `json:"scopeKind"`
	Decision   string `json:"decision"`
	ApprovedAt string `json:"approvedAt"`
	Reason     string `json:"reason"`
	Session    bool   `json:"session"`
}

// Checkpoint is a file checkpoint.
type Checkpoint struct {
	Sequence      int      `json:"sequence"`
	Tool          string   `json:"tool"`
	Files         []string `json:"files"`
	FilesRestored int      `json:"filesRestored"`
	FilesDeleted  int      `json:"filesDeleted"`
	Skipped       []string `json:"skipped"`
}

// Risk is a risk assessment.
type Risk struct {
	Level      string   `json:"level"`
	Categories []string `json:"categories"`
	Reason     string   `json:"reason"`
}

// Block is a sandbox block (v1: violation).
type Block struct {
	Code        string `json:"code"`
	ToolName    string `json:"toolName"`
	Action      string `json:"action"`
	Risk        *Risk  `json:"risk"`
	Path        string `json:"path"`
	Reason      string `json:"reason"`
	Recoverable bool   `json:"recoverable"`
}

// Decode decodes one v2 output line with unknown fields disallowed, as
// Zero's decoder does.
func Decode(line []byte) (*Event, error) {
	var ev Event
	if err := strict(line, &ev); err != nil {
		return nil, err
	}
	return &ev, nil
}

// DecodeV1 decodes one v1 output line likewise.
func DecodeV1(line []byte) (*Event, error) {
	var ev EventV1
	if err := strict(line, &ev); err != nil {
		return nil, err
	}
	return &ev.Event, nil
}

func strict(line []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(line))
	d.DisallowUnknownFields()
	return d.Decode(v)
}

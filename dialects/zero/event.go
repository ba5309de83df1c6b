package zero

// Zero decodes every output line into one flat Go struct (Zero 0.8.0's
// stream-json event, as PROTOCOLS.md lists it), with nested structs for
// risk, block, grant, display and checkpoint. A strict client refuses a
// field these types do not have, or a value they cannot hold, so they are
// what the Encoder may write: the translator fits Zero output to them
// (translate/target.go reads them), tests decode zevo's output with them,
// and TestStructsAreTheProtocolTables holds them to protocol's field
// tables. Tags without omitempty are the fields Zero always writes.

// Fields are the fields of both versions' event.
type Fields struct {
	SchemaVersion     int               `json:"schemaVersion"`
	Type              string            `json:"type"`
	RunID             string            `json:"runId"`
	SessionID         string            `json:"sessionId,omitempty"`
	Cwd               string            `json:"cwd,omitempty"`
	Provider          string            `json:"provider,omitempty"`
	Model             string            `json:"model,omitempty"`
	APIModel          string            `json:"apiModel,omitempty"`
	Delta             string            `json:"delta,omitempty"`
	ID                string            `json:"id,omitempty"`
	Name              string            `json:"name,omitempty"`
	Args              any               `json:"args,omitempty"`
	Action            string            `json:"action,omitempty"`
	Permission        string            `json:"permission,omitempty"`
	PermissionGranted *bool             `json:"permissionGranted,omitempty"`
	PermissionMode    string            `json:"permissionMode,omitempty"`
	Autonomy          string            `json:"autonomy,omitempty"`
	SideEffect        string            `json:"sideEffect,omitempty"`
	Reason            string            `json:"reason,omitempty"`
	DecisionReason    string            `json:"decisionReason,omitempty"`
	Risk              *Risk             `json:"risk,omitempty"`
	GrantMatched      bool              `json:"grantMatched,omitempty"`
	Status            string            `json:"status,omitempty"`
	Output            string            `json:"output,omitempty"`
	Truncated         *bool             `json:"truncated,omitempty"`
	Redacted          *bool             `json:"redacted,omitempty"`
	ChangedFiles      []string          `json:"changedFiles,omitempty"`
	Display           *Display          `json:"display,omitempty"`
	Checkpoint        *Checkpoint       `json:"checkpoint,omitempty"`
	Meta              map[string]string `json:"meta,omitempty"`
	PromptTokens      *int              `json:"promptTokens,omitempty"`
	CompletionTokens  *int              `json:"completionTokens,omitempty"`
	TotalTokens       *int              `json:"totalTokens,omitempty"`
	CostUSD           *float64          `json:"costUsd,omitempty"`
	Text              string            `json:"text,omitempty"`
	Message           string            `json:"message,omitempty"`
	Code              string            `json:"code,omitempty"`
	Recoverable       *bool             `json:"recoverable,omitempty"`
	ExitCode          *int              `json:"exitCode,omitempty"`
}

// Event is the output event of schemaVersion 2.
type Event struct {
	Fields
	Block *Block `json:"block,omitempty"`
	Grant *Grant `json:"grant,omitempty"`
}

// EventV1 is the output event of schemaVersion 1: violation where v2
// has block, and a grant with maxAutonomy.
type EventV1 struct {
	Fields
	Violation *Block   `json:"violation,omitempty"`
	Grant     *GrantV1 `json:"grant,omitempty"`
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

// GrantV1 is version 1's grant.
type GrantV1 struct {
	Grant
	MaxAutonomy string `json:"maxAutonomy"`
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

// Display is how a client shows a tool result.
type Display struct {
	Summary string `json:"summary"`
	Kind    string `json:"kind"`
}

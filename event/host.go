package event

// Host is what exec needs to stand in for a dialect's producer under a
// client that drives the producer through its own stream-json input (Claude
// Code under the Claude Agent SDK): `zevo exec --to NAME --input-format
// stream-json -- AGENT …` reads the client's messages, answers what it
// asks of the producer itself, and runs AGENT once a prompt.
type Host struct {
	// Pass names the producer's options a client passes that exec takes,
	// with their value, under its own names: "model" → "agent-model" (for
	// {model} in AGENT's arguments), "resume" → "agent-resume".
	Pass map[string]string
	// Same names the producer's options that ask for what exec writes
	// anyway (its output format), dropped; true for one that takes a value.
	Same map[string]bool
	// Read reads one line of the client's, a JSON value.
	Read func(line []byte) HostMessage
}

// HostMessage is what one line of a host's client asks.
type HostMessage struct {
	Prompt    string // the prompt of one AGENT run ("" none)
	Reply     []byte // a line to write to the client now (nil none)
	Interrupt bool   // stop the AGENT run going on, as a SIGINT to zevo would
	// Note is a problem with the line, for stderr ("" none); Where says
	// to prefix it with the line's place.
	Note  string
	Where bool
}

package jsonl

// Family groups the versions of one producer's protocol: lines of one
// family may belong to one run, lines of different families never do.
// Each dialect's folder numbers its families; 0 is none.
type Family uint8

// Protocol is one producer's protocol at one version, as the producer
// writes it: its names, its serialization and its events' fields. The
// dialects' folders define their protocols.
type Protocol struct {
	Name    string   // canonical name, as zevo prints it
	Aliases []string // other names accepted on the command line
	Title   string
	Family  Family
	// Version is the schema version the events carry; 0 when the
	// protocol has none.
	Version int
	// Style is how the producer serializes JSON.
	Style Style
	// SchemaFile is the file of its JSON Schema, in its dialect's folder
	// (dialects/NAME), which embeds it.
	SchemaFile string
	// Strict: the producer's own decoder refuses unknown fields;
	// otherwise readers ignore them.
	Strict bool
	// Envelope are the fields every event carries; Events the fields of
	// each event type. Both follow the producer's own structs.
	Envelope []Field
	Events   []EventFields
}

func (p *Protocol) String() string { return p.Name }

// Names lists p's name and aliases.
func (p *Protocol) Names() []string { return append([]string{p.Name}, p.Aliases...) }

// Field is one top-level field an event may carry.
type Field struct {
	Name string
	Kind Kind
	// Required: the producer always writes it.
	Required bool
}

// EventFields is the field table of one event type (the envelope's
// fields apart).
type EventFields struct {
	Type   string
	Fields []Field
}

// Field returns the named field of e, or false.
func (e *EventFields) Field(name string) (Field, bool) {
	for _, f := range e.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}

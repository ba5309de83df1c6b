// Package benthos provides zevo's translation and jq as Benthos processors
// (zevo_translate, zevo_jq), for pipelines that carry many agents' events.
package benthos

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/redpanda-data/benthos/v4/public/service"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/mappings"
	"github.com/zevo/zevo/redact"
	"github.com/zevo/zevo/translate"
)

func translateSpec() *service.ConfigSpec {
	return service.NewConfigSpec().
		Summary("Translates agents' stream-json events into the stream-json of the agent named by to, as zevo translate does, keeping the state of each stream (run framing, pending tool calls, ids) per key.").
		Description(`Each message is one line of an agent's stream. Messages with the same key
are one stream, translated in the order they arrive; the processor must
therefore see them in order (put it under the input's processors, or set
pipeline.threads to 1). A message may produce no event, one, or several
(run_start before the first event of a run; final and run_end for done).

A message with the metadata zevo_end (the zevo_lines scanner writes one,
empty, after the last line of each input) ends its key's stream as zevo
translate ends a stream at the end of a file; an empty one whose key cannot
be evaluated (a key read from the lines' JSON) ends every key.

A bad message (not JSON, a mapped field of the wrong type, ...) is passed on
with an error, for catch or a dead-letter output; with the events it still
produced, if any. A blank message translates to nothing and only closes idle
keys: a generate input of empty messages in a broker ticks the idle timeout
when the stream is quiet.

A key idle for idle_timeout, or the oldest key when there are more than
max_keys, is closed as zevo closes a stream at the end of its input (a run
still open ends as incomplete); its events are derived from the key's last
message, so they keep its metadata.`).
		Field(service.NewStringEnumField("to", translate.Targets()...).
			Description("Target dialect, as zevo translate --to: "+translate.TargetNames()+targetAliases()+".")).
		Field(service.NewStringEnumField("from", translate.Sources()...).
			Description("Source protocol: auto detects each message.").Default("auto").Advanced()).
		Field(service.NewInterpolatedStringField("run_id").
			Description("Run id of the runs opened for a key, as zevo translate --run-id (later runs of the key get .2, .3, ...); evaluated on the key's first message. Unset: the target's own format with a random part.").
			Example(`${! meta("kafka_key") }`).Optional()).
		Field(service.NewInterpolatedStringField("session_id").
			Description("sessionId of the run_start events written for a key; evaluated on the key's first message.").Optional()).
		Field(service.NewInterpolatedStringField("cwd").
			Description("cwd of the run_start events written for a key; evaluated on the key's first message. Unset: the working directory.").Optional()).
		Field(service.NewInterpolatedStringField("model").
			Description("model and apiModel of the run_start events written for a key; evaluated on the key's first message.").Optional()).
		Field(service.NewStringEnumField("unmapped", "drop", "keep", "error").
			Description("Events with no counterpart: dropped (and counted in the metric zevo_translate_unmapped), kept with their type prefixed, or an error on the message.").
			Default("drop")).
		Field(service.NewStringListField("mappings").
			Description("Mapping table files that add or override rules, as zevo translate --mapping.").Default([]any{})).
		Field(service.NewBoolField("redact").
			Description("Redact the output with the default rules. Unset: as zevo translate (on with to: "+redactedTargets()+").").Optional()).
		Field(service.NewBoolField("redact_extra").
			Description("Redact with the default rules plus GitHub tokens, AWS access keys, PEM private keys, JWTs, Slack tokens and Google API keys.").Default(false)).
		Field(service.NewInterpolatedStringField("key").
			Description("The stream a message belongs to; translation state is kept per key. Empty: all messages are one stream.").
			Examples(`${! meta("kafka_key") }`, `${! meta("path") }`).Default("")).
		Field(service.NewDurationField("idle_timeout").
			Description("Close a key that has had no message for this long. Empty: never.").
			Example("10m").Default("")).
		Field(service.NewIntField("max_keys").
			Description("The most keys open at once; beyond it the least recently active key is closed.").
			Default(1024)).
		Example("Translate EvoScientist to Zero, one run per session", "", `
pipeline:
  threads: 1
  processors:
    - zevo_translate:
        to: zero
        key: ${! meta("kafka_key") }
        run_id: ${! meta("kafka_key") }
        idle_timeout: 10m
`)
}

// targetAliases names, for the description of to, the targets that are
// another's alias: " (zero is zero@2)".
func targetAliases() string {
	var out []string
	for _, n := range translate.Targets() {
		if f, err := translate.ParseTarget(n); err == nil && fmt.Sprint(f) != n {
			out = append(out, n+" is "+fmt.Sprint(f))
		}
	}
	if len(out) == 0 {
		return ""
	}
	return " (" + strings.Join(out, ", ") + ")"
}

// redactedTargets lists the targets whose output is redacted when redact
// is unset, as translate.RedactsByDefault decides.
func redactedTargets() string {
	var on []string
	for _, n := range translate.Targets() {
		if f, err := translate.ParseTarget(n); err == nil && translate.RedactsByDefault(f) {
			on = append(on, n)
		}
	}
	if len(on) < 2 {
		return strings.Join(on, "")
	}
	return strings.Join(on[:len(on)-1], ", ") + " or " + on[len(on)-1]
}

// translateProc is the zevo_translate processor: a Translator per key.
type translateProc struct {
	base    translate.Options
	runID   *service.InterpolatedString // nil: unset
	session *service.InterpolatedString
	cwd     *service.InterpolatedString
	model   *service.InterpolatedString
	key     *service.InterpolatedString
	idle    time.Duration // 0: never
	maxKeys int
	log     *service.Logger

	translated, unmapped, diagnosed, events *service.MetricCounter
	ends                                    *service.MetricCounter // label reason: ended, idle, evicted
	open                                    *service.MetricGauge

	mu         sync.Mutex
	concurrent sync.Once // the warning that Process is called concurrently
	streams    map[string]*stream
	lru        list.List // of *stream, least recently active first
}

// stream is one key's translation.
type stream struct {
	key  string
	name string // the key as diagnostics name it
	tr   *translate.Translator
	out  [][]byte         // events of the message being translated
	last *service.Message // the key's last message: closing events derive from it
	seen time.Time
	num  int // messages so far: the "line" of diagnostics
	elem *list.Element
}

// now is the processor's clock; tests set it.
var now = time.Now

func newTranslateProc(conf *service.ParsedConfig, mgr *service.Resources) (*translateProc, error) {
	p := &translateProc{streams: map[string]*stream{}, log: mgr.Logger()}
	var err error
	str := func(name string) string {
		if err != nil {
			return ""
		}
		var s string
		s, err = conf.FieldString(name)
		return s
	}
	toName, fromName, unmappedName := str("to"), str("from"), str("unmapped")
	if err != nil {
		return nil, err
	}
	if p.base.To, err = translate.ParseTarget(toName); err != nil {
		return nil, fmt.Errorf("to: %w", err)
	}
	if p.base.From, err = translate.ParseSource(fromName); err != nil {
		return nil, fmt.Errorf("from: %w", err)
	}
	if p.base.Unmapped, err = translate.ParseUnmapped(unmappedName); err != nil {
		return nil, fmt.Errorf("unmapped: %w", err)
	}
	for _, f := range []struct {
		name string
		dst  **service.InterpolatedString
	}{{"run_id", &p.runID}, {"session_id", &p.session}, {"cwd", &p.cwd}, {"model", &p.model}, {"key", &p.key}} {
		if !conf.Contains(f.name) {
			continue
		}
		if *f.dst, err = conf.FieldInterpolatedString(f.name); err != nil {
			return nil, err
		}
	}
	if p.runID != nil {
		if id, ok := p.runID.Static(); ok {
			if err := translate.CheckRunID(id); err != nil {
				return nil, fmt.Errorf("run_id %q: %w", id, err)
			}
		}
	}
	if p.cwd == nil {
		p.base.Cwd, _ = os.Getwd()
	}
	tables := mappings.Default()
	paths, err := conf.FieldStringList("mappings")
	if err != nil {
		return nil, err
	}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("mappings: %w", err)
		}
		if err := tables.Load(path, data); err != nil {
			return nil, fmt.Errorf("mappings: %w", err)
		}
	}
	p.base.Tables = tables
	p.base.Redact = translate.RedactsByDefault(p.base.To)
	if conf.Contains("redact") {
		if p.base.Redact, err = conf.FieldBool("redact"); err != nil {
			return nil, err
		}
	}
	extra, err := conf.FieldBool("redact_extra")
	if err != nil {
		return nil, err
	}
	if extra {
		if conf.Contains("redact") && !p.base.Redact {
			return nil, errors.New("redact: false and redact_extra: true contradict each other")
		}
		p.base.Redact, p.base.Redactor = true, redact.WithExtra()
	}
	idle, err := conf.FieldString("idle_timeout")
	if err != nil {
		return nil, err
	}
	if idle != "" {
		if p.idle, err = time.ParseDuration(idle); err != nil || p.idle <= 0 {
			return nil, fmt.Errorf("idle_timeout: %q is not a positive duration", idle)
		}
	}
	if p.maxKeys, err = conf.FieldInt("max_keys"); err != nil {
		return nil, err
	}
	if p.maxKeys < 1 {
		return nil, fmt.Errorf("max_keys: %d, want at least 1", p.maxKeys)
	}
	m := mgr.Metrics()
	p.translated = m.NewCounter("zevo_translate_translated")
	p.unmapped = m.NewCounter("zevo_translate_unmapped")
	p.diagnosed = m.NewCounter("zevo_translate_diagnosed")
	p.events = m.NewCounter("zevo_translate_events")
	p.ends = m.NewCounter("zevo_translate_ends", "reason")
	p.open = m.NewGauge("zevo_translate_open_keys")
	return p, nil
}

// Process translates one message into the events it gives, after the
// closing events of the keys that have become idle.
func (p *translateProc) Process(ctx context.Context, msg *service.Message) (service.MessageBatch, error) {
	if !p.mu.TryLock() {
		p.concurrent.Do(func() {
			p.log.Warn("zevo_translate is running on several threads at once: a stream's messages may be translated out of order; set pipeline.threads to 1, or put zevo_translate under the input's processors")
		})
		p.mu.Lock()
	}
	defer p.mu.Unlock()
	t := now()
	var batch service.MessageBatch
	if p.idle > 0 {
		for e := p.lru.Front(); e != nil; e = p.lru.Front() {
			s := e.Value.(*stream)
			if t.Sub(s.seen) < p.idle {
				break
			}
			batch = p.close(msg, s, batch, "idle")
		}
	}
	b, err := msg.AsBytes()
	if err != nil {
		return nil, err
	}
	_, end := msg.MetaGet(endMeta)
	blank := jsonl.IsBlank(b)
	if blank && !end {
		return batch, nil
	}
	key := ""
	if p.key != nil {
		if key, err = p.key.TryString(msg); err != nil {
			if blank {
				// The end of an input whose key is in the lines
				// (json("sessionId")): it ends every key.
				for e := p.lru.Front(); e != nil; e = e.Next() {
					s := e.Value.(*stream)
					batch = p.end(s.last.WithContext(msg.Context()), s, batch, "ended")
				}
				return batch, nil
			}
			return append(batch, failed(msg, fmt.Errorf("key: %w", err))), nil
		}
	}
	s := p.streams[key]
	if blank { // the end of an input
		if s != nil {
			batch = p.end(msg, s, batch, "ended")
		}
		return batch, nil
	}
	if s == nil {
		if s, err = p.newStream(key, msg); err != nil {
			return append(batch, failed(msg, err)), nil
		}
		for len(p.streams) > p.maxKeys {
			batch = p.close(msg, p.lru.Front().Value.(*stream), batch, "evicted")
		}
	}
	s.seen, s.last = t, msg.Copy()
	s.last.SetBytes(nil) // only its metadata is needed
	p.lru.MoveToBack(s.elem)
	s.num++
	before := *s.tr.Stats()
	err = s.tr.Line(jsonl.Line{Name: s.name, Num: s.num, Bytes: b})
	after := s.tr.Stats()
	p.translated.Incr(int64(after.Mapped - before.Mapped))
	p.unmapped.Incr(int64(after.Unmapped - before.Unmapped))
	p.diagnosed.Incr(int64(after.Diagnosed - before.Diagnosed))
	batch = p.take(msg, s, batch)
	if err != nil {
		// A diagnostic, or an error of emit, which cannot fail: the
		// message goes on with it, after the events it still gave.
		batch = append(batch, failed(msg, err))
	}
	if end {
		batch = p.end(msg, s, batch, "ended")
	}
	return batch, nil
}

// newStream opens a key, its options evaluated on its first message.
func (p *translateProc) newStream(key string, msg *service.Message) (*stream, error) {
	opt := p.base
	for _, f := range []struct {
		name string
		src  *service.InterpolatedString
		dst  *string
	}{{"run_id", p.runID, &opt.RunID}, {"session_id", p.session, &opt.SessionID}, {"cwd", p.cwd, &opt.Cwd}, {"model", p.model, &opt.Model}} {
		if f.src == nil {
			continue
		}
		v, err := f.src.TryString(msg)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.name, err)
		}
		*f.dst = v
	}
	if p.runID != nil {
		if err := translate.CheckRunID(opt.RunID); err != nil {
			return nil, fmt.Errorf("run_id %q: %w", opt.RunID, err)
		}
	}
	s := &stream{key: key, name: key}
	if key == "" {
		s.name = "message"
	}
	s.tr = translate.New(opt, func(ev []byte) error {
		s.out = append(s.out, append([]byte(nil), ev...))
		return nil
	})
	s.elem = p.lru.PushBack(s)
	p.streams[key] = s
	p.open.Set(int64(len(p.streams)))
	return s, nil
}

// close ends a key as the end of its input would and forgets it,
// appending its last events to batch.
func (p *translateProc) close(msg *service.Message, s *stream, batch service.MessageBatch, reason string) service.MessageBatch {
	p.lru.Remove(s.elem)
	delete(p.streams, s.key)
	p.open.Set(int64(len(p.streams)))
	return p.end(s.last.WithContext(msg.Context()), s, batch, reason)
}

// end closes what a key's input left open, as zevo translate does at the
// end of each file; the key's stream goes on with its next message, as
// translate's with the next file. Its events are copies of from.
func (p *translateProc) end(from *service.Message, s *stream, batch service.MessageBatch, reason string) service.MessageBatch {
	p.ends.Incr(1, reason)
	if err := s.tr.End(s.name); err != nil {
		p.log.Errorf("closing key %q: %v", s.key, err)
	}
	s.num = 0 // diagnostics count the lines of each input
	return p.take(from, s, batch)
}

// take appends the events a stream has just written, as copies of from.
func (p *translateProc) take(from *service.Message, s *stream, batch service.MessageBatch) service.MessageBatch {
	for _, ev := range s.out {
		m := from.Copy()
		m.SetBytes(ev)
		batch = append(batch, m)
	}
	p.events.Incr(int64(len(s.out)))
	s.out = s.out[:0]
	return batch
}

// failed is msg passed on with err, for catch and dead-letter outputs.
func failed(msg *service.Message, err error) *service.Message {
	m := msg.Copy()
	m.SetError(err)
	return m
}

// Close counts the keys still open. A processor writes only in answer to
// a message, so a run still open when the input stops without an end
// message (see zevo_lines) stays without its end.
func (p *translateProc) Close(ctx context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.streams); n > 0 {
		p.log.Debugf("zevo_translate: %d key(s) open at shutdown", n)
	}
	return nil
}

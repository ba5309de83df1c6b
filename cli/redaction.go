package cli

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tidwall/gjson"
	ucli "github.com/urfave/cli/v2"
	"github.com/zevo/zevo/internal/termsafe"
	"github.com/zevo/zevo/jsonl"
	"github.com/zevo/zevo/redact"
)

// The one redaction rule: what a person or a collector sees (an output, a
// document, a table, a --json report, a diagnostic, a message on stderr)
// is redacted with the default rules (package redact) unless --no-redact; --redact-extra adds the
// stronger patterns. Only translate's output to EvoScientist and jq's
// results, which are the stream's own data, are written as they are by
// default (translate --redact redacts them). See docs/guarantees.md,
// "Redaction: one rule".

// redactFlags are --no-redact and --redact-extra, for the commands that
// redact by default (view, stats, validate, otel).
func redactFlags() []ucli.Flag {
	return []ucli.Flag{
		&ucli.BoolFlag{Name: "no-redact", Usage: "show secrets as they are, in the output and in messages (they are redacted by default)"},
		&ucli.BoolFlag{Name: "redact-extra", Usage: "redact with the default rules plus GitHub tokens, AWS access keys, PEM private keys, JWTs, Slack tokens and Google API keys"},
	}
}

// redactorOf decides, for every command, what it redacts: it returns the
// redactor of the command's output (nil: shown as it is), byDefault
// saying whether the output is redacted when no flag is given, and sets
// the redactor of its messages (the output's, or the default rules when the
// output is not redacted by default; none with --no-redact).
func redactorOf(c *ucli.Context, e *env, byDefault bool) (*redact.Redactor, error) {
	var rd *redact.Redactor
	switch {
	case c.Bool("no-redact") && c.Bool("redact-extra"):
		return nil, usageErr("--redact-extra and --no-redact contradict each other")
	case c.Bool("no-redact") && c.Bool("redact"):
		return nil, usageErr("--redact and --no-redact contradict each other")
	case c.Bool("no-redact"):
		e.msgs = nil
		return nil, nil
	case c.Bool("redact-extra"):
		rd = redact.WithExtra()
	case c.Bool("redact") || byDefault:
		rd = new(redact.Redactor)
	}
	if rd != nil {
		e.msgs = rd
	}
	return rd, nil
}

// redactLine returns l redacted by rd into buf (its new buffer), or l as
// it is when rd is nil or l is not a valid JSON line (then it is reported
// as it is, with its faults' places).
func redactLine(rd *redact.Redactor, l jsonl.Line, buf []byte) (jsonl.Line, []byte) {
	if rd == nil || !utf8.Valid(l.Bytes) || jsonl.TooDeep(l.Bytes) || !gjson.ValidBytes(l.Bytes) {
		return l, buf
	}
	if b, err := jsonl.AppendValue(buf[:0], l.Bytes, jsonl.GoStyle, rd); err == nil {
		buf, l.Bytes = b, b
	}
	return l, buf
}

// redactText is redactLine for a command that shows no value under a
// key (stats, otel): only a line that may hold a secret pattern is
// rewritten, so the others cost one quick scan.
func redactText(rd *redact.Redactor, l jsonl.Line, buf []byte) (jsonl.Line, []byte) {
	if rd == nil || !rd.MayMatch(l.Bytes) {
		return l, buf
	}
	return redactLine(rd, l, buf)
}

// urlCredentials finds URLs with a user and password.
var urlCredentials = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^\s/@"']*:[^\s/@"']*@[^\s"']*`)
})

// shown is text from the input or the system made fit for stderr: secrets
// redacted (as the command redacts), a URL's password hidden, and every
// control character escaped, so that a file name or a value can neither
// drive the terminal nor start a line of its own. Every message and
// diagnostic zevo writes goes through it.
func (e *env) shown(s string) string {
	if e.msgs != nil {
		s = e.msgs.String(s)
	}
	if strings.Contains(s, "@") {
		s = urlCredentials().ReplaceAllStringFunc(s, redact.URL)
	}
	return termsafe.String(s)
}

// warnf writes one message, "zevo: …", on stderr.
func (e *env) warnf(format string, a ...any) {
	msg := strings.TrimPrefix(fmt.Sprintf(format, a...), "zevo: ")
	fmt.Fprintf(e.stderr, "zevo: %s\n", e.shown(msg))
}

// lineMsg is msg about line n of file, worded as every command words a
// line's diagnostic (jsonl.Diagnostic): FILE:LINE: MSG.
func lineMsg(file string, n int, msg string) string {
	return jsonl.Diagnostic{File: file, Line: n, Severity: jsonl.SevError, Message: msg}.String()
}

// diag writes one FILE:LINE: … diagnostic (or a summary line that already
// says "zevo:") on stderr.
func (e *env) diag(line string) {
	fmt.Fprintf(e.stderr, "%s\n", e.shown(strings.TrimSuffix(line, "\n")))
}

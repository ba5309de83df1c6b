package inspect

import (
	"fmt"
	"strings"
)

// markdownDoc writes GitHub-flavoured Markdown. Text from the input is
// escaped so it reads as it was written and cannot open a construct:
// prose with backslash escapes, code in fences longer than any run of
// backticks inside, HTML (the <summary> lines) with entities.
type markdownDoc struct{}

// overviewMax is how many runs the table at the top lists.
const overviewMax = 1000

func (m *markdownDoc) begin(dst []byte, h *docHead) []byte {
	dst = append(dst, "# "...)
	dst = mdInline(dst, h.Title)
	dst = append(dst, "\n\n"...)
	dst = append(dst, "Written by zevo"...)
	if h.Version != "" {
		dst = append(dst, ' ')
		dst = mdInline(dst, h.Version)
	}
	if h.Redacted {
		dst = append(dst, "; secrets redacted"...)
	} else {
		dst = append(dst, "; not redacted"...)
	}
	dst = append(dst, ".\n\n"...)
	if len(h.Runs) < 2 {
		return dst
	}
	dst = append(dst, "| run | status | tokens | cost | tool calls | errors |\n|---|---|---|---|---:|---:|\n"...)
	for i, r := range h.Runs {
		if i == overviewMax {
			dst = fmt.Appendf(dst, "\n%d more runs are not listed here.\n", len(h.Runs)-i)
			break
		}
		dst = fmt.Appendf(dst, "| [%d](#%s)", r.Num, mdAnchor(r))
		if r.ID != "" {
			dst = append(dst, ' ')
			dst = mdCell(dst, r.ID)
		}
		dst = append(dst, " | "...)
		dst = mdCell(dst, statusMark(r.StatusClass)+r.Status)
		dst = append(dst, " | "...)
		dst = mdCell(dst, r.TotalTokens)
		dst = append(dst, " | "...)
		dst = mdCell(dst, r.CostShort)
		dst = fmt.Appendf(dst, " | %d | %d |\n", r.ToolCalls, r.ErrorCount)
	}
	return append(dst, '\n')
}

// mdAnchor is the id of a run's heading (GitHub keeps ids of anchors and
// follows links to them).
func mdAnchor(r *runHead) string { return fmt.Sprintf("run-%d", r.Num) }

func statusMark(class string) string {
	switch class {
	case "ok":
		return "✓ "
	case "warn":
		return "⚠ "
	}
	return "✗ "
}

func (m *markdownDoc) file(dst []byte, name string) []byte {
	dst = append(dst, "# File "...)
	dst = mdInline(dst, name)
	return append(dst, "\n\n"...)
}

func (m *markdownDoc) runStart(dst []byte, r *runHead) []byte {
	dst = fmt.Appendf(dst, "## <a id=\"%s\"></a>Run %d", mdAnchor(r), r.Num)
	for _, s := range []string{r.ID, r.Model, statusMark(r.StatusClass) + r.Status, r.TotalTokens + " tokens"} {
		if s != "" {
			dst = append(dst, " · "...)
			dst = mdInline(dst, s)
		}
	}
	dst = append(dst, "\n\n"...)
	tools := fmt.Sprintf("%d", r.ToolCalls)
	if r.ToolErrors > 0 {
		tools += fmt.Sprintf(", %d failed", r.ToolErrors)
	}
	if r.Tools != "" {
		tools += " (" + r.Tools + ")"
	}
	sep := ""
	for _, f := range [][2]string{{"Tokens", r.Tokens}, {"Cost", r.Cost}, {"Tool calls", tools}, {"Permissions", r.Permissions}, {"Errors", r.Errors}, {"Provider", r.Provider}, {"Cwd", r.Cwd}} {
		if f[1] == "" {
			continue
		}
		dst = append(dst, sep...)
		dst = append(dst, "**"+f[0]+"** "...)
		dst = mdInline(dst, f[1])
		sep = " · "
	}
	return append(dst, "\n\n"...)
}

func (m *markdownDoc) text(dst []byte, kind textKind, label string, c *clipText) []byte {
	body := c.text()
	switch kind {
	case kText:
		dst = mdProse(dst, body, "")
	case kPrompt:
		dst = append(dst, "**Prompt**\n\n"...)
		dst = mdProse(dst, body, "> ")
	case kFinal:
		dst = append(dst, "**Final answer**\n\n"...)
		dst = mdProse(dst, body, "")
	default:
		dst = append(dst, "<details>\n<summary>"...)
		dst = mdHTML(dst, foldTitle[kind]+label)
		dst = fmt.Appendf(dst, " (%s)</summary>\n\n", byteSize(c.total))
		dst = mdProse(dst, body, "")
		dst = mdNote(dst, c.note())
		return append(dst, "</details>\n\n"...)
	}
	return mdNote(dst, c.note())
}

// mdNote writes zevo's own note (a clip) in italics.
func mdNote(dst []byte, note string) []byte {
	if note == "" {
		return dst
	}
	dst = append(dst, '*')
	dst = mdInline(dst, note)
	return append(dst, "*\n\n"...)
}

func (m *markdownDoc) tool(dst []byte, call *docCall, res *docResult) []byte {
	dst = append(dst, "<details>\n<summary>"...)
	dst = mdHTML(dst, toolLine(call, res))
	dst = append(dst, "</summary>\n\n"...)
	if call != nil && call.HasArgs {
		dst = append(dst, "Arguments:\n\n"...)
		dst = mdFence(dst, "json", call.Args.text())
		dst = mdNote(dst, call.Args.note())
	}
	if res != nil {
		dst = mdInline(dst, resultTitle(res))
		dst = append(dst, ":\n\n"...)
		if res.Output.total > 0 {
			dst = mdFence(dst, "", res.Output.text())
			dst = mdNote(dst, res.Output.note())
		}
	}
	return append(dst, "</details>\n\n"...)
}

// toolLine is the one line that names a tool call and its outcome.
func toolLine(call *docCall, res *docResult) string {
	var s string
	switch {
	case call != nil:
		s = call.Name
		if call.Summary != "" {
			s += "  " + call.Summary
		}
	default:
		s = "result of " + res.Name
		if res.ID != "" {
			s += " (" + res.ID + ")"
		}
	}
	if res != nil {
		s += " — " + resultStatus(res)
	}
	return s
}

func resultStatus(res *docResult) string {
	s := "✓ ok"
	if !res.OK {
		s = "✗ failed"
	}
	s += ", " + byteSize(res.Output.total)
	if res.Note != "" {
		s += ", " + res.Note
	}
	return s
}

func resultTitle(res *docResult) string {
	return "Result (" + resultStatus(res) + ")"
}

func (m *markdownDoc) notice(dst []byte, kind noticeKind, label, msg string) []byte {
	if kind != nInfo {
		dst = append(dst, "> "...)
	}
	dst = append(dst, noticeMark[kind]...)
	dst = append(dst, " **"...)
	dst = mdInline(dst, label)
	dst = append(dst, "**"...)
	if msg != "" {
		dst = append(dst, ": "...)
		dst = mdInline(dst, msg)
	}
	return append(dst, "\n\n"...)
}

// runEnd writes nothing: the heading said how the run ended.
func (m *markdownDoc) runEnd(dst []byte, r *runHead) []byte { return dst }

func (m *markdownDoc) end(dst []byte) []byte { return dst }

// mdProse writes text as Markdown paragraphs that show it as it is: line
// breaks kept, blank lines between paragraphs, every character that could
// start Markdown or HTML escaped, each line prefixed (for a quote).
func mdProse(dst []byte, s, prefix string) []byte {
	lines := strings.Split(s, "\n")
	wrote := false
	for i, l := range lines {
		l = strings.TrimSuffix(l, "\r")
		if strings.TrimSpace(l) == "" {
			if wrote {
				dst = append(dst, prefix...)
				dst = append(dst, '\n')
				wrote = false
			}
			continue
		}
		dst = append(dst, prefix...)
		dst = mdLine(dst, l)
		if i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "" {
			dst = append(dst, '\\') // a hard line break
		}
		dst = append(dst, '\n')
		wrote = true
	}
	if wrote {
		dst = append(dst, '\n')
	}
	return dst
}

// mdLine writes one line of prose: leading white space kept as
// non-breaking spaces (so it is not an indented code block), a line that
// would start a list, heading, quote or rule escaped.
func mdLine(dst []byte, l string) []byte {
	i := 0
	for i < len(l) && (l[i] == ' ' || l[i] == '\t') {
		if l[i] == '\t' {
			dst = append(dst, "&nbsp;&nbsp;&nbsp;&nbsp;"...)
		} else {
			dst = append(dst, "&nbsp;"...)
		}
		i++
	}
	l = l[i:]
	if l == "" {
		return dst
	}
	// An ordered list marker: digits then "." or ")".
	j := 0
	for j < len(l) && j < 10 && l[j] >= '0' && l[j] <= '9' {
		j++
	}
	if j > 0 && j < len(l) && (l[j] == '.' || l[j] == ')') {
		dst = append(dst, l[:j]...)
		dst = append(dst, '\\', l[j])
		l = l[j+1:]
	} else if c := l[0]; c == '-' || c == '+' || c == '=' {
		dst = append(dst, '\\', c)
		l = l[1:]
	}
	return mdInline(dst, l)
}

// mdInline escapes text inside a paragraph, heading or table cell: control
// characters as visible escapes (as zevo view shows them), every ASCII
// character Markdown, HTML or GitHub's extensions give a meaning escaped
// with a backslash, and "@name" broken with a word joiner so pasting a
// transcript notifies nobody.
func mdInline(dst []byte, s string) []byte { return mdEscape(dst, s, false) }

// mdCell is mdInline for a table cell, where a line break cannot be.
func mdCell(dst []byte, s string) []byte { return mdInline(dst, s) }

// mdHTML escapes text inside an HTML block (a <summary> line): entities
// for the characters HTML gives a meaning, no line break (a blank line
// would end the block), and mentions broken as in mdInline.
func mdHTML(dst []byte, s string) []byte { return mdEscape(dst, s, true) }

var htmlEntity = map[byte]string{'&': "&amp;", '<': "&lt;", '>': "&gt;", '"': "&quot;"}

func mdEscape(dst []byte, s string, inHTML bool) []byte {
	safe := AppendSafe(nil, s, false, nil)
	for i, c := range safe {
		switch {
		case inHTML && (c == '&' || c == '<' || c == '>' || c == '"'):
			dst = append(dst, htmlEntity[c]...)
		case !inHTML && strings.IndexByte("\\`*_[]<>#|~$&", c) >= 0:
			dst = append(dst, '\\', c)
		case c == '@' && i+1 < len(safe) && isWordByte(safe[i+1]):
			dst = append(dst, "@\u2060"...)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// mdFence writes s as a fenced code block whose fence is longer than any
// run of backticks in s, so nothing in s can close it.
func mdFence(dst []byte, info, s string) []byte {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	dst = append(dst, fence...)
	dst = append(dst, info...)
	dst = append(dst, '\n')
	dst = AppendSafe(dst, s, true, nil)
	dst = append(dst, '\n')
	dst = append(dst, fence...)
	return append(dst, "\n\n"...)
}

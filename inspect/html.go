package inspect

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"sync"
)

// htmlDoc writes one self-contained HTML page: inline CSS, no script,
// nothing fetched. Every string from the input is written as escaped text
// (never inside an attribute or a URL), and the Content-Security-Policy
// allows only the page's own style sheet, so even markup that slipped
// through could neither run nor load anything.
type htmlDoc struct {
	scratch []byte
}

const htmlStyle = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--dim:#59636e;--line:#d1d9e0;--box:#f6f8fa;--ok:#1a7f37;--bad:#cf222e;--warn:#9a6700;--okbg:#dafbe1;--badbg:#ffebe9;--warnbg:#fff8c5;--accent:#0969da}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--dim:#9198a1;--line:#3d444d;--box:#151b23;--ok:#3fb950;--bad:#f85149;--warn:#d29922;--okbg:#12261e;--badbg:#25171c;--warnbg:#272115;--accent:#4493f8}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;overflow-wrap:break-word}
main,header,nav{max-width:64rem;margin:0 auto;padding:0 1rem}
header{padding-top:1rem}
h1{font-size:1.4rem;margin:.5rem 0}
h2{font-size:1.2rem;margin:0 0 .5rem}
.meta,.dim{color:var(--dim);font-size:.875rem}
a{color:var(--accent)}
.scroll{overflow-x:auto}
table{border-collapse:collapse;font-size:.875rem;margin:.5rem 0 1rem}
th,td{border:1px solid var(--line);padding:.25rem .5rem;text-align:left;vertical-align:top;white-space:nowrap}
td.n{text-align:right;font-variant-numeric:tabular-nums}
h2.file{font-size:1.3rem;border-bottom:2px solid var(--line);padding:.5rem 0;margin-top:1.5rem}
section.run{border:1px solid var(--line);border-radius:8px;padding:1rem;margin:1rem 0}
dl.summary{display:grid;grid-template-columns:max-content 1fr;gap:.125rem .75rem;margin:0 0 1rem;font-size:.875rem;background:var(--box);border-radius:6px;padding:.5rem .75rem}
dl.summary dt{color:var(--dim)}
dl.summary dd{margin:0}
.ok{color:var(--ok)}.bad{color:var(--bad)}.warn{color:var(--warn)}
.text,.final .body{white-space:pre-wrap;margin:.75rem 0}
.final{border-left:4px solid var(--ok);padding:.25rem .75rem;margin:.75rem 0;background:var(--box)}
.final h3,.prompt h3{font-size:.875rem;margin:0;color:var(--dim)}
.prompt{border-left:4px solid var(--accent);padding:.25rem .75rem;margin:.75rem 0}
.prompt .body{white-space:pre-wrap}
details{border:1px solid var(--line);border-radius:6px;margin:.5rem 0;background:var(--box)}
details>summary{cursor:pointer;padding:.375rem .625rem;font-size:.875rem}
details>div{padding:0 .625rem .5rem}
details.tool{border-left:4px solid var(--line)}
details.tool.done{border-left-color:var(--ok)}
details.tool.failed{border-left-color:var(--bad)}
details.sub{margin-left:1.5rem}
summary .name{font-weight:600;color:var(--fg)}
summary code{color:var(--dim)}
details.reasoning>summary{color:var(--dim);font-style:italic}
h4{font-size:.8rem;margin:.5rem 0 .25rem;color:var(--dim);text-transform:uppercase;letter-spacing:.04em}
pre,code{font:.8125rem/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:0;padding:.5rem;background:var(--bg);border:1px solid var(--line);border-radius:4px;max-height:40rem;overflow:auto}
.prose{white-space:pre-wrap;font-size:.9375rem}
.clip{font-size:.8125rem;color:var(--warn);margin:.25rem 0}
.notice{margin:.375rem 0;padding:.375rem .625rem;border-radius:6px;font-size:.9375rem}
.notice.permission,.notice.warning{background:var(--warnbg);border-left:4px solid var(--warn)}
.notice.allowed{background:var(--okbg);border-left:4px solid var(--ok)}
.notice.denied,.notice.error{background:var(--badbg);border-left:4px solid var(--bad)}
.notice.info{color:var(--dim);font-size:.8125rem;padding:.125rem .625rem}
.notice b{font-weight:600}
@media (max-width:40rem){main,header,nav{padding:0 .5rem}h1{font-size:1.15rem}section.run{padding:.625rem;border-radius:0;border-left:0;border-right:0}details.sub{margin-left:.5rem}body{font-size:15px}}
`

// htmlCSP allows the page's own style sheet, by its hash, and nothing else.
// Hashed on first use: at init every command would pay for it.
var htmlCSP = sync.OnceValue(func() string {
	sum := sha256.Sum256([]byte(htmlStyle))
	return "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'; base-uri 'none'; form-action 'none'"
})

// esc appends s as HTML text: control characters as visible escapes (as
// zevo view shows them), &, <, >, " and ' as entities. With newlines, line
// breaks and tabs are kept.
func (h *htmlDoc) esc(dst []byte, s string, newlines bool) []byte {
	h.scratch = AppendSafe(h.scratch[:0], s, newlines, nil)
	start := 0
	for i, c := range h.scratch {
		var e string
		switch c {
		case '&':
			e = "&amp;"
		case '<':
			e = "&lt;"
		case '>':
			e = "&gt;"
		case '"':
			e = "&#34;"
		case '\'':
			e = "&#39;"
		default:
			continue
		}
		dst = append(dst, h.scratch[start:i]...)
		dst = append(dst, e...)
		start = i + 1
	}
	return append(dst, h.scratch[start:]...)
}

func (h *htmlDoc) begin(dst []byte, d *docHead) []byte {
	dst = append(dst, `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="`...)
	dst = append(dst, htmlCSP()...)
	dst = append(dst, `">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>`...)
	dst = h.esc(dst, d.Title, false)
	dst = append(dst, "</title>\n<style>"...)
	dst = append(dst, htmlStyle...)
	dst = append(dst, "</style>\n</head>\n<body>\n<header>\n<h1>"...)
	dst = h.esc(dst, d.Title, false)
	dst = append(dst, "</h1>\n<p class=\"meta\">Written by zevo"...)
	if d.Version != "" {
		dst = append(dst, ' ')
		dst = h.esc(dst, d.Version, false)
	}
	if d.Redacted {
		dst = append(dst, "; secrets redacted"...)
	} else {
		dst = append(dst, "; not redacted"...)
	}
	dst = fmt.Appendf(dst, ". %d run(s).</p>\n</header>\n", len(d.Runs))
	if len(d.Runs) > 0 {
		dst = append(dst, `<nav class="overview"><div class="scroll"><table>
<thead><tr><th>run</th><th>status</th><th>tokens</th><th>cost</th><th>tool calls</th><th>errors</th></tr></thead>
<tbody>
`...)
		for i, r := range d.Runs {
			if i == overviewMax {
				dst = fmt.Appendf(dst, "<tr><td colspan=\"6\">%d more runs are not listed here.</td></tr>\n", len(d.Runs)-i)
				break
			}
			dst = fmt.Appendf(dst, `<tr><td><a href="#run-%d">%d</a>`, r.Num, r.Num)
			if r.ID != "" {
				dst = append(dst, ' ')
				dst = h.esc(dst, r.ID, false)
			}
			dst = fmt.Appendf(dst, `</td><td class="%s">`, r.StatusClass)
			dst = h.esc(dst, statusMark(r.StatusClass)+r.Status, false)
			dst = append(dst, `</td><td class="n">`...)
			dst = append(dst, r.TotalTokens...)
			dst = append(dst, `</td><td>`...)
			dst = h.esc(dst, r.CostShort, false)
			dst = fmt.Appendf(dst, "</td><td class=\"n\">%d</td><td class=\"n\">%d</td></tr>\n", r.ToolCalls, r.ErrorCount)
		}
		dst = append(dst, "</tbody></table></div></nav>\n"...)
	}
	return append(dst, "<main>\n"...)
}

func (h *htmlDoc) file(dst []byte, name string) []byte {
	dst = append(dst, "<h2 class=\"file\">"...)
	dst = h.esc(dst, name, false)
	return append(dst, "</h2>\n"...)
}

func (h *htmlDoc) runStart(dst []byte, r *runHead) []byte {
	dst = fmt.Appendf(dst, "<section class=\"run\" id=\"run-%d\">\n<h2>Run %d", r.Num, r.Num)
	if r.ID != "" {
		dst = append(dst, " · "...)
		dst = h.esc(dst, r.ID, false)
	}
	dst = append(dst, "</h2>\n<dl class=\"summary\">\n"...)
	row := func(k, class, v string) {
		if v == "" {
			return
		}
		dst = append(dst, "<dt>"+k+"</dt><dd"...)
		if class != "" {
			dst = append(dst, " class=\""+class+"\""...)
		}
		dst = append(dst, '>')
		dst = h.esc(dst, v, false)
		dst = append(dst, "</dd>\n"...)
	}
	row("status", r.StatusClass, statusMark(r.StatusClass)+r.Status)
	row("model", "", r.Model)
	row("provider", "", r.Provider)
	row("tokens", "", r.Tokens)
	row("cost", "", r.Cost)
	tools := fmt.Sprintf("%d", r.ToolCalls)
	if r.ToolErrors > 0 {
		tools += fmt.Sprintf(", %d failed", r.ToolErrors)
	}
	if r.Tools != "" {
		tools += ": " + r.Tools
	}
	row("tool calls", "", tools)
	row("permissions", "", r.Permissions)
	row("errors", "bad", r.Errors)
	row("cwd", "", r.Cwd)
	return append(dst, "</dl>\n"...)
}

func (h *htmlDoc) clipNote(dst []byte, c *clipText) []byte {
	if n := c.note(); n != "" {
		dst = append(dst, "<p class=\"clip\">"...)
		dst = h.esc(dst, n, false)
		dst = append(dst, "</p>\n"...)
	}
	return dst
}

func (h *htmlDoc) text(dst []byte, kind textKind, label string, c *clipText) []byte {
	body := c.text()
	switch kind {
	case kText:
		dst = append(dst, "<div class=\"text\">"...)
		dst = h.esc(dst, body, true)
		dst = append(dst, "</div>\n"...)
	case kFinal, kPrompt:
		class, title := "final", "Final answer"
		if kind == kPrompt {
			class, title = "prompt", "Prompt"
		}
		dst = append(dst, "<div class=\""+class+"\"><h3>"+title+"</h3><div class=\"body\">"...)
		dst = h.esc(dst, body, true)
		dst = append(dst, "</div></div>\n"...)
	default:
		dst = append(dst, "<details class=\"reasoning\"><summary>"...)
		dst = h.esc(dst, foldTitle[kind]+label, false)
		dst = append(dst, " · "...)
		dst = append(dst, byteSize(c.total)...)
		dst = append(dst, "</summary><div><div class=\"prose\">"...)
		dst = h.esc(dst, body, true)
		dst = append(dst, "</div>"...)
		dst = h.clipNote(dst, c)
		return append(dst, "</div></details>\n"...)
	}
	return h.clipNote(dst, c)
}

func (h *htmlDoc) tool(dst []byte, call *docCall, res *docResult) []byte {
	class := "tool"
	if res != nil {
		class += map[bool]string{true: " done", false: " failed"}[res.OK]
	}
	if call != nil && call.Sub {
		class += " sub"
	}
	dst = append(dst, "<details class=\""+class+"\"><summary>"...)
	switch {
	case call != nil:
		dst = append(dst, "<span class=\"name\">"...)
		dst = h.esc(dst, call.Name, false)
		dst = append(dst, "</span>"...)
		if call.Summary != "" {
			dst = append(dst, " <code>"...)
			dst = h.esc(dst, call.Summary, false)
			dst = append(dst, "</code>"...)
		}
	default:
		dst = append(dst, "result of <span class=\"name\">"...)
		dst = h.esc(dst, res.Name, false)
		dst = append(dst, "</span>"...)
		if res.ID != "" {
			dst = append(dst, " <code>"...)
			dst = h.esc(dst, res.ID, false)
			dst = append(dst, "</code>"...)
		}
	}
	if res != nil {
		dst = append(dst, " <span class=\""+map[bool]string{true: "ok", false: "bad"}[res.OK]+"\">"...)
		dst = h.esc(dst, resultStatus(res), false)
		dst = append(dst, "</span>"...)
	}
	dst = append(dst, "</summary><div>"...)
	if call != nil && call.HasArgs {
		dst = append(dst, "<h4>Arguments</h4><pre>"...)
		dst = h.esc(dst, call.Args.text(), true)
		dst = append(dst, "</pre>"...)
		dst = h.clipNote(dst, &call.Args)
	}
	if res != nil {
		dst = append(dst, "<h4>Result</h4>"...)
		if res.Output.total > 0 {
			dst = append(dst, "<pre>"...)
			dst = h.esc(dst, res.Output.text(), true)
			dst = append(dst, "</pre>"...)
			dst = h.clipNote(dst, &res.Output)
		} else {
			dst = append(dst, "<p class=\"dim\">(empty)</p>"...)
		}
	}
	if call != nil && res == nil {
		dst = append(dst, "<p class=\"dim\">The result follows later, or never came.</p>"...)
	}
	return append(dst, "</div></details>\n"...)
}

var noticeClass = map[noticeKind]string{nInfo: "info", nPermission: "permission", nAllowed: "allowed", nDenied: "denied", nWarning: "warning", nError: "error"}

func (h *htmlDoc) notice(dst []byte, kind noticeKind, label, msg string) []byte {
	dst = append(dst, "<div class=\"notice "+noticeClass[kind]+"\">"+noticeMark[kind]+" <b>"...)
	dst = h.esc(dst, label, false)
	dst = append(dst, "</b>"...)
	if msg != "" {
		dst = append(dst, ": "...)
		dst = h.esc(dst, msg, false)
	}
	return append(dst, "</div>\n"...)
}

func (h *htmlDoc) runEnd(dst []byte, r *runHead) []byte {
	dst = fmt.Appendf(dst, "<p class=\"dim\">End of run %d: <span class=\"%s\">", r.Num, r.StatusClass)
	dst = h.esc(dst, r.Status, false)
	return append(dst, "</span></p>\n</section>\n"...)
}

func (h *htmlDoc) end(dst []byte) []byte {
	return append(dst, "</main>\n</body>\n</html>\n"...)
}

package cli

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// chromiumPath finds Debian's Chromium. Without it the browser tests are
// skipped, except in CI (CI=true), where .ci/run installs it.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("Chromium is not installed, and CI=true: .ci/run installs Debian's chromium package")
	}
	t.Skip("Chromium is not installed (apt-get install chromium): the browser test of view --format html is skipped")
	return ""
}

// browser starts headless Chromium and returns a tab; listen gets the
// tab's events. It runs as root on CI machines, hence no sandbox;
// background networking is off, so every request seen is the page's own.
func browser(t *testing.T, listen func(ev any)) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath(t)),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.WindowSize(1280, 900),
	)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx, chromedp.WithListener(listen))
	t.Cleanup(cancel2)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	return ctx
}

// do runs browser steps, failing the test on an error.
func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := chromedp.Do(tctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// js evaluates an expression in the page.
func js[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	v, err := chromedp.Run(tctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// media sets the page's width and colour scheme.
func media(width int64, scheme string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := chromedp.EmulateViewport(width, 900, chromedp.EmulateScale(1))(ctx, tg); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
		})
		return err
	})
}

// hostileLog is an EvoScientist log and a Zero log whose content tries to
// run script, fire handlers, load from a server and break out of the
// markup, with secrets that redaction must remove. URL is the address of
// a server that counts requests.
func hostileLog(url string) (evo, zero string) {
	evo = `{"type": "thinking", "content": "</summary></details><script>window.pwnedThinking=1</script>"}
{"type": "text", "content": "<script>window.pwnedText=1</script><img src=\"URL/img\" onerror=\"window.pwnedOnerror=1\"><iframe src=\"URL/frame\"></iframe>"}
{"type": "tool_call", "name": "execute", "args": {"command": "curl -H 'Authorization: Bearer abcdefghijklmnop1234' URL/x", "api_key": "sk-live-0123456789abcdef"}, "id": "c1"}
{"type": "tool_result", "name": "execute", "content": "</pre></details><script>window.pwnedResult=1</script><img src=x onerror=\"window.pwnedOnerror2=1\"><link rel=stylesheet href=\"URL/css\"><style>@import url(URL/import); body{display:none}</style><meta http-equiv=\"refresh\" content=\"0;url=URL/refresh\"><a href=\"javascript:window.pwnedLink=1\">x</a> token sk-abcdefghijklmnopqrstuvwx", "success": false, "id": "c1"}
{"type": "tool_call", "name": "read_file", "args": {"path": "README.md"}, "id": "c2"}
{"type": "tool_result", "name": "read_file", "content": "# Demo\n<svg onload=\"window.pwnedSvg=1\"></svg>", "success": true, "id": "c2"}
{"type": "usage_stats", "input_tokens": 5123, "output_tokens": 388}
{"type": "done", "response": "Done."}
{"type": "text", "content": "second run"}
{"type": "error", "message": "<b onmouseover=\"window.pwnedError=1\">provider timed out</b>"}
`
	zero = `{"schemaVersion": 2, "type": "run_start", "runId": "run_1", "provider": "openai", "model": "gpt-4.1", "cwd": "/repo"}
{"schemaVersion": 2, "type": "tool_call", "runId": "run_1", "id": "w1", "name": "write_file", "args": {"path": "a.txt", "password": "hunter2-hunter2"}}
{"schemaVersion": 2, "type": "permission_request", "runId": "run_1", "id": "w1", "name": "write_file", "sideEffect": "write", "reason": "Writes <i>files</i>."}
{"schemaVersion": 2, "type": "permission_decision", "runId": "run_1", "id": "w1", "name": "write_file", "action": "allow"}
{"schemaVersion": 2, "type": "tool_result", "runId": "run_1", "id": "w1", "status": "ok", "output": "wrote"}
{"schemaVersion": 2, "type": "usage", "runId": "run_1", "promptTokens": 12, "completionTokens": 8, "totalTokens": 20}
{"schemaVersion": 2, "type": "run_end", "runId": "run_1", "status": "success", "exitCode": 0}
`
	return strings.ReplaceAll(evo, "URL", url), zero
}

var hostileSecrets = []string{"abcdefghijklmnop1234", "sk-live-0123456789abcdef", "sk-abcdefghijklmnopqrstuvwx", "hunter2-hunter2"}

// TestViewHTMLInBrowser opens view --format html in headless Chromium and
// checks the page a person would see: every run, tool calls folded,
// hostile content shown as text without running or loading anything, no
// secret, readable at phone width, and dark when the system is.
func TestViewHTMLInBrowser(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	dir := t.TempDir()
	evo, zero := hostileLog(srv.URL)
	evoPath, zeroPath := filepath.Join(dir, "hostile.evosci.jsonl"), filepath.Join(dir, "run.zero.jsonl")
	if err := os.WriteFile(evoPath, []byte(evo), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(zeroPath, []byte(zero), 0o644); err != nil {
		t.Fatal(err)
	}
	code, page, errs := run(t, "", "view", "--format", "html", evoPath, zeroPath)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, s := range hostileSecrets {
		if strings.Contains(page, s) {
			t.Errorf("secret %q in the page", s)
		}
	}
	pagePath := filepath.Join(dir, "transcript.html")
	if err := os.WriteFile(pagePath, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	var requests []string
	ctx := browser(t, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			mu.Lock()
			requests = append(requests, e.Request.URL)
			mu.Unlock()
		}
	})
	do(t, ctx,
		chromedp.Navigate("file://"+pagePath),
		chromedp.WaitReady(chromedp.CSS("main")),
		chromedp.Sleep(300*time.Millisecond), // time for anything that could load to try
	)
	visible := `[...document.querySelectorAll("details.tool pre")].filter(p => p.checkVisibility()).length`
	runs := js[int](t, ctx, `document.querySelectorAll("section.run").length`)
	tools := js[int](t, ctx, `document.querySelectorAll("details.tool").length`)
	open := js[int](t, ctx, `document.querySelectorAll("details[open]").length`)
	if shown := js[int](t, ctx, visible); runs != 3 || tools != 3 || open != 0 || shown != 0 {
		t.Errorf("%d runs (want 3), %d tool calls (want 3), %d open details, %d visible outputs (want 0)", runs, tools, open, shown)
	}
	scripts := js[int](t, ctx, `document.scripts.length`)
	active := js[int](t, ctx, `document.querySelectorAll("img, iframe, svg, link, object, embed, form, input, base, a[href^='javascript'], meta[http-equiv=refresh], i, main b[onmouseover]").length`)
	pwned := js[string](t, ctx, `Object.keys(window).filter(k => k.startsWith("pwned")).join(",")`)
	if scripts != 0 || active != 0 || pwned != "" {
		t.Errorf("content became markup: %d scripts, %d active elements, globals %q", scripts, active, pwned)
	}
	text := js[string](t, ctx, `document.querySelector("main").textContent`)
	for _, s := range []string{
		"<script>window.pwnedResult=1</script>", `<img src=x onerror="window.pwnedOnerror2=1">`,
		"<script>window.pwnedText=1</script>", `<svg onload="window.pwnedSvg=1"></svg>`,
		"Writes <i>files</i>.", `<b onmouseover="window.pwnedError=1">provider timed out</b>`,
		"Bearer [REDACTED]", `"api_key": "[REDACTED]"`,
	} {
		if !strings.Contains(text, s) {
			t.Errorf("the page does not show the text %q", s)
		}
	}
	html := js[string](t, ctx, `document.documentElement.outerHTML`)
	for _, s := range hostileSecrets {
		if strings.Contains(html, s) || strings.Contains(text, s) {
			t.Errorf("secret %q in the rendered page", s)
		}
	}
	// The style sheet applied: the CSP's hash is the sheet's.
	if r := js[string](t, ctx, `getComputedStyle(document.querySelector("details")).borderTopLeftRadius`); r != "6px" {
		t.Errorf("details border radius %q: the style sheet was not applied", r)
	}
	overview := js[string](t, ctx, `[...document.querySelectorAll("nav tbody tr")].map(r => [...r.cells].map(c => c.innerText).join(" | ")).join("\n")`)
	wantOverview := "1 | ✓ done | 5511 | unpriced | 2 | 0\n2 | ✗ error | 0 | $0.0000 | 0 | 1\n3 run_1 | ✓ success (exit 0) | 20 | $0.0001 | 1 | 0"
	if overview != wantOverview {
		t.Errorf("overview:\n%s\nwant:\n%s", overview, wantOverview)
	}

	// Opening a tool call shows its arguments and result.
	js[chromedp.Void](t, ctx, `document.querySelector("details.tool summary").click()`)
	if n := js[int](t, ctx, visible); n != 2 {
		t.Errorf("an opened tool call shows %d outputs, want 2 (arguments, result)", n)
	}

	// Phone width: nothing wider than the screen; dark when the system is.
	do(t, ctx, media(390, "dark"), chromedp.Reload(), chromedp.WaitReady(chromedp.CSS("main")))
	if n := js[int](t, ctx, `document.documentElement.scrollWidth - document.documentElement.clientWidth`); n > 0 {
		t.Errorf("at phone width the page is %d px wider than the screen", n)
	}
	if bg := js[string](t, ctx, `getComputedStyle(document.body).backgroundColor`); bg != "rgb(13, 17, 23)" {
		t.Errorf("dark scheme: background %q", bg)
	}
	if dir := os.Getenv("ZEVO_SCREENSHOT_DIR"); dir != "" {
		screenshots(t, ctx, pagePath, dir)
	}

	mu.Lock()
	defer mu.Unlock()
	for _, u := range requests {
		if u != "file://"+pagePath {
			t.Errorf("the page requested %s", u)
		}
	}
	if len(requests) == 0 {
		t.Error("no request seen at all: network events are not being observed")
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the server got %d requests", n)
	}
}

// screenshots writes the page at desktop and phone widths, light and dark,
// with the first tool call open, for people to look at:
// ZEVO_SCREENSHOT_DIR=dir go test ./cli -run Browser.
func screenshots(t *testing.T, ctx context.Context, pagePath, dir string) {
	for _, s := range []struct {
		name   string
		width  int64
		scheme string
	}{{"desktop-light", 1280, "light"}, {"desktop-dark", 1280, "dark"}, {"phone-light", 390, "light"}, {"phone-dark", 390, "dark"}} {
		do(t, ctx, media(s.width, s.scheme), chromedp.Navigate("file://"+pagePath), chromedp.WaitReady(chromedp.CSS("main")))
		js[chromedp.Void](t, ctx, `document.querySelector("details.tool summary").click()`)
		tctx, cancel := context.WithTimeout(ctx, time.Minute)
		png, err := chromedp.Run(tctx, chromedp.FullScreenshot(100))
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, s.name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The page of real captures, one per agent, in Chromium: a section per
// run and a tool block per tool call as the decoders read them, failed
// calls marked, the final answers there, and nothing loaded or run.
func TestViewHTMLCapturesInBrowser(t *testing.T) {
	files := []string{
		"../testdata/captures/claude/yoke-thinking-three-bash-calls-2.1.104.jsonl",
		"../testdata/captures/codex/agent-harness-unknown-model-turn-failed.jsonl",
		"../testdata/captures/opencode/nightgauge-bash-permission-rejected.jsonl",
		"../testdata/captures/cursor/cursor-hack-thinking-deltas-shell.jsonl",
	}
	// What the captures hold, from their lines: 4 runs (one each); the
	// tool calls: 3 Bash, 1 bash (rejected: failed), 1 shell; 1 error.
	const wantRuns, wantTools, wantFailed = 4, 5, 1
	code, page, errs := run(t, "", append([]string{"view", "--format", "html", "--full"}, files...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	dir := t.TempDir()
	pagePath := filepath.Join(dir, "captures.html")
	if err := os.WriteFile(pagePath, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var requests []string
	ctx := browser(t, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			mu.Lock()
			requests = append(requests, e.Request.URL)
			mu.Unlock()
		}
	})
	do(t, ctx, chromedp.Navigate("file://"+pagePath), chromedp.WaitReady(chromedp.CSS("main")))
	runs := js[int](t, ctx, `document.querySelectorAll("section.run").length`)
	// A call whose result comes after other lines has its result in a
	// block of its own ("result of NAME ID"): the calls are the others.
	tools := js[int](t, ctx, `[...document.querySelectorAll("details.tool > summary")].filter(s => !s.textContent.startsWith("result of")).length`)
	failed := js[int](t, ctx, `document.querySelectorAll("details.tool.failed").length`)
	errors := js[int](t, ctx, `document.querySelectorAll(".notice.error").length`)
	if runs != wantRuns || tools != wantTools || failed != wantFailed || errors != 1 {
		t.Errorf("%d runs (want %d), %d tool calls (want %d), %d failed (want %d), %d errors (want 1)",
			runs, wantRuns, tools, wantTools, failed, wantFailed, errors)
	}
	if n := js[int](t, ctx, `document.scripts.length`); n != 0 {
		t.Errorf("%d scripts in the page", n)
	}
	text := js[string](t, ctx, `document.querySelector("main").textContent`)
	for _, s := range []string{"definitely-not-a-real-model", "python3 calc.py", "sleep 10", "complete"} {
		if !strings.Contains(text, s) {
			t.Errorf("the page does not show %q", s)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for _, u := range requests {
		if u != "file://"+pagePath {
			t.Errorf("the page requested %s", u)
		}
	}
}

package cli

import (
	"strings"
	"testing"

	"github.com/zevo/zevo/dialects"
	"github.com/zevo/zevo/translate"
)

// The help names the dialects as the registry and translate know them,
// not from a list of its own: every dialect's title in zevo --help,
// translate's sources in --from, each target once in --no-redact or
// --redact as translate redacts it by default, and the dialect whose
// input events exec reads.
func TestHelpNamesWhatTheRegistryKnows(t *testing.T) {
	help := func(args ...string) string {
		var out, errs strings.Builder
		if code := Run(append([]string{"zevo"}, args...), strings.NewReader(""), &out, &errs); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs.String())
		}
		return strings.Join(strings.Fields(out.String()), " ")
	}
	app := help("--help")
	for _, d := range dialects.All {
		if !strings.Contains(app, d.Title) {
			t.Errorf("zevo --help does not name %s", d.Title)
		}
	}
	tr := help("translate", "--help")
	if !strings.Contains(tr, "source protocol FORMAT: "+orList(translate.Sources())) {
		t.Errorf("--from does not list %v:\n%s", translate.Sources(), tr)
	}
	no := tr[strings.Index(tr, "--no-redact"):]
	no = no[:strings.Index(no, "(default")]
	yes := tr[strings.Index(tr, "--redact "):]
	yes = yes[:strings.Index(yes, "(default")]
	for _, n := range translate.Targets() {
		f, err := translate.ParseTarget(n)
		if err != nil {
			t.Fatal(err)
		}
		in, other := no, yes
		if !translate.RedactsByDefault(f) {
			in, other = yes, no
		}
		if !strings.Contains(in, " "+n) || strings.Contains(other, " "+n+" ") || strings.Contains(other, " "+n+")") {
			t.Errorf("target %s: --no-redact %q, --redact %q", n, no, yes)
		}
	}
	if ex := help("exec", "--help"); !strings.Contains(ex, "stream-json ("+dialects.PromptInput.Title+"'s input events)") {
		t.Errorf("exec --help does not name %s's input events:\n%s", dialects.PromptInput.Title, ex)
	}
}

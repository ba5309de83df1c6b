package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestHelpCommand(t *testing.T) {
	code, out, errs := run(t, "", "help", "stats")
	if code != 0 || !strings.Contains(out, "zevo stats - summarize runs") || !strings.Contains(out, "--totals") {
		t.Errorf("help stats: exit %d\n%s%s", code, out, errs)
	}
	if code, out, _ := run(t, "", "help", "jq"); code != 0 || !strings.HasPrefix(out, "Usage: zevo jq [OPTIONS]") || !strings.Contains(out, "--follow") {
		t.Errorf("help jq: exit %d\n%s", code, out)
	}
	if code, out, _ := run(t, "", "help"); code != 0 || !strings.Contains(out, "completion") || !strings.Contains(out, "man ") {
		t.Errorf("help: exit %d\n%s", code, out)
	}
}

// TestCompletionScripts: each script is what its shell loads without a
// syntax error.
func TestCompletionScripts(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish"} {
		code, out, errs := run(t, "", "completion", sh)
		if code != 0 || !strings.Contains(out, "zevo") {
			t.Fatalf("completion %s: exit %d %s", sh, code, errs)
		}
		if sh == "fish" && !strings.Contains(out, "complete -c zevo -n '__fish_seen_subcommand_from stats' -f -l totals") {
			t.Errorf("fish script has no stats --totals:\n%s", out)
		}
		path, err := exec.LookPath(sh)
		if err != nil {
			if sh == "bash" {
				t.Fatal("bash is needed")
			}
			t.Logf("%s not installed: only generated", sh)
			continue
		}
		script := filepath.Join(t.TempDir(), "zevo."+sh)
		os.WriteFile(script, []byte(out), 0o644)
		if msg, err := exec.Command(path, "-n", script).CombinedOutput(); err != nil {
			t.Errorf("%s -n: %v\n%s", sh, err, msg)
		}
		if sh == "fish" {
			// fish's script is complete in itself: ask it as fish would.
			got, err := exec.Command(path, "-c", "source "+script+`; complete -C "zevo st"; complete -C "zevo stats --to"; complete -C "zevo jq --sl"`).CombinedOutput()
			if err != nil || !strings.Contains(string(got), "stats\t") || !strings.Contains(string(got), "--totals\t") || !strings.Contains(string(got), "--slurp") {
				t.Errorf("fish completes to %q (%v)", got, err)
			}
		}
	}
	if code, _, errs := run(t, "", "completion", "tcsh"); code != ExitUsage || !strings.Contains(errs, `unknown shell "tcsh"`) {
		t.Errorf("tcsh: exit %d %s", code, errs)
	}
}

// TestShellCompletion completes in bash (and zsh) with the script loaded,
// as a user's shell would, against the built zevo.
func TestShellCompletion(t *testing.T) {
	bin := zevoBinary(t)
	for words, want := range map[string]string{
		"zevo st":               "stats",
		"zevo stats --to":       "--totals",
		"zevo view --co":        "--color",
		"zevo completion z":     "", // a shell name is not a command: files
		"zevo translate --":     "--to",
		"zevo stats x.jsonl --": "--json",
		"zevo jq --sl":          "--slurp",
		"zevo jq . --fo":        "--follow",
		`zevo jq . ""`:          "", // a FILE: the shell's own completion
		// After "--" the words are an agent's (or files): nothing runs.
		`zevo exec --to zero -- sh -c "date > made" ""`: "",
	} {
		script := `source <(zevo completion bash)
COMP_WORDS=(` + words + `); COMP_CWORD=$((${#COMP_WORDS[@]}-1))
_zevo_complete; printf '%s\n' "${COMPREPLY[@]}"`
		cmd := exec.Command("bash", "-c", script)
		cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+":"+os.Getenv("PATH"))
		cmd.Dir = t.TempDir()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", words, err, out)
		}
		got := strings.TrimSpace(string(out))
		if want != "" && !strings.Contains("\n"+got+"\n", "\n"+want+"\n") {
			t.Errorf("%q completes to %q, want %s", words, got, want)
		}
		if want == "" && got != "" {
			t.Errorf("%q completes to %q, want nothing", words, got)
		}
		if _, err := os.Stat(filepath.Join(cmd.Dir, "made")); err == nil {
			t.Errorf("%q: completing ran the agent", words)
		}
	}
	zsh, err := exec.LookPath("zsh")
	if err != nil {
		t.Log("zsh not installed: bash only")
		return
	}
	// zsh's own _describe and _files are replaced by printers, to see what
	// the script offers.
	script := `autoload -U compinit; compinit -u 2>/dev/null; source <(zevo completion zsh)
_describe() { print -l -- "${opts[@]}" }; _files() { print FILES }
words=(zevo st); CURRENT=2; _zevo; words=(zevo stats --to); CURRENT=3; _zevo; words=(zevo stats ""); CURRENT=3; _zevo`
	cmd := exec.Command(zsh, "-c", script)
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+":"+os.Getenv("PATH"))
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	if got := string(out); err != nil || !strings.Contains(got, "stats\n") || !strings.Contains(got, "--totals\n") || !strings.HasSuffix(got, "FILES\n") {
		t.Errorf("zsh completes to %q (%v)", got, err)
	}
}

// TestManPage: the page is roff that man renders without warnings.
func TestManPage(t *testing.T) {
	code, page, errs := run(t, "", "man")
	if code != 0 || !strings.HasPrefix(page, ".nh\n.TH zevo 1") {
		t.Fatalf("man: exit %d %.80q %s", code, page, errs)
	}
	// Options are written with roff's minus signs (\-), as typed.
	for _, want := range []string{"translate", "validate", `\-\-totals`, `\-\-follow`} {
		if !strings.Contains(page, want) {
			t.Errorf("man page lacks %q", want)
		}
	}
	groff, err := exec.LookPath("groff")
	if err != nil {
		t.Skip("groff not installed (.ci/run installs it)")
	}
	cmd := exec.Command(groff, "-k", "-man", "-Tutf8", "-ww")
	cmd.Stdin = strings.NewReader(page)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || stderr.Len() > 0 {
		t.Fatalf("groff: %v\n%s", err, stderr.String())
	}
	// Bold and underline are overstruck: drop each character before a
	// backspace.
	text := regexp.MustCompile(".\b").ReplaceAllString(string(out), "")
	if !strings.Contains(text, "NAME") || !strings.Contains(text, "translate") || !strings.Contains(text, "--totals") {
		t.Errorf("rendered page:\n%s", text)
	}
}

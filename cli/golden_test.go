package cli

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/golden (review with git diff)")

// TestGolden runs each case folder of testdata/golden: its cmd file holds
// the arguments (run in the folder), expout, experr and exitcode what zevo
// must write and return.
func TestGolden(t *testing.T) {
	dirs, err := filepath.Glob("../testdata/golden/*/cmd")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no golden cases found: %v", err)
	}
	for _, cmdFile := range dirs {
		dir, _ := filepath.Abs(filepath.Dir(cmdFile))
		t.Run(filepath.Base(dir), func(t *testing.T) {
			cmd, err := os.ReadFile(cmdFile)
			if err != nil {
				t.Fatal(err)
			}
			t.Chdir(dir)
			args := append([]string{"zevo"}, splitArgs(t, strings.TrimSpace(string(cmd)))...)
			var stdout, stderr bytes.Buffer
			code := Run(args, strings.NewReader(""), &stdout, &stderr)
			checkGolden(t, "expout", stdout.Bytes())
			checkGolden(t, "experr", stderr.Bytes())
			checkGolden(t, "exitcode", []byte(strconv.Itoa(code)+"\n"))
		})
	}
}

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(name, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(name)
	if err != nil {
		t.Fatalf("%v (run go test ./cli -run TestGolden -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// splitArgs splits a command line on spaces, honouring single and double quotes.
func splitArgs(t *testing.T, s string) []string {
	var args []string
	var cur strings.Builder
	quote := byte(0)
	inArg := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(c)
		case c == '\'' || c == '"':
			quote, inArg = c, true
		case c == ' ':
			if inArg {
				args = append(args, cur.String())
				cur.Reset()
				inArg = false
			}
		default:
			cur.WriteByte(c)
			inArg = true
		}
	}
	if quote != 0 {
		t.Fatalf("unbalanced quote in %q", s)
	}
	if inArg {
		args = append(args, cur.String())
	}
	return args
}

package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// specCase is one CLI case of a spec file cli/testdata/*.yaml: zevo run
// with args (without the program name) on stdin, in the cli directory, or
// with files in a fresh directory of their own.
type specCase struct {
	Name  string            `yaml:"name"`
	Args  []string          `yaml:"args"`
	Stdin string            `yaml:"stdin"`
	Files map[string]string `yaml:"files"` // name → content, made in a temporary directory
	Env   map[string]string `yaml:"env"`   // environment variables set for the case
	// Stdout and Stderr are the exact expected outputs; absent means empty.
	Stdout string `yaml:"stdout"`
	Stderr string `yaml:"stderr"`
	Exit   int    `yaml:"exit"`
}

// TestSpec runs every case of every spec file through Run with buffers.
func TestSpec(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no spec files in testdata")
	}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var cases []specCase
		dec := yaml.NewDecoder(bytes.NewReader(data))
		dec.KnownFields(true)
		if err := dec.Decode(&cases); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		seen := map[string]bool{}
		t.Run(strings.TrimSuffix(filepath.Base(path), ".yaml"), func(t *testing.T) {
			for _, tc := range cases {
				if tc.Name == "" || seen[tc.Name] {
					t.Fatalf("%s: case names must be given and unique: %q", path, tc.Name)
				}
				seen[tc.Name] = true
				t.Run(tc.Name, func(t *testing.T) { runSpecCase(t, tc) })
			}
		})
	}
}

func runSpecCase(t *testing.T, tc specCase) {
	for k, v := range tc.Env {
		t.Setenv(k, v)
	}
	if len(tc.Files) > 0 {
		dir := t.TempDir()
		for name, content := range tc.Files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		t.Chdir(dir)
	}
	var stdout, stderr bytes.Buffer
	code := Run(append([]string{"zevo"}, tc.Args...), strings.NewReader(tc.Stdin), &stdout, &stderr)
	if got := stdout.String(); got != tc.Stdout {
		t.Errorf("stdout:\n got: %q\nwant: %q", got, tc.Stdout)
	}
	if got := stderr.String(); got != tc.Stderr {
		t.Errorf("stderr:\n got: %q\nwant: %q", got, tc.Stderr)
	}
	if code != tc.Exit {
		t.Errorf("exit code: got %d, want %d", code, tc.Exit)
	}
}

package cli

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// codePath is a backquoted name of a file or folder of the tree: a
// name with one of the tree's extensions, or ending in a slash.
var codePath = regexp.MustCompile("`([A-Za-z0-9_./-]+(?:\\.(?:go|s|h|json|jsonl|md|sh|jq|yaml|mod)|/))`")

// TestContributorPagesNameRealFiles: every file or folder that
// CONTRIBUTING.md and docs/architecture.md name exists. A name in a row
// of CONTRIBUTING's table "Where things are" may be relative to the
// folder the row is about ("`inspect/` | `lines.go` …"); elsewhere a
// name without a folder is not checked, and a folder's name may be that
// of one in some package ("each package's `testdata/fuzz/`").
func TestContributorPagesNameRealFiles(t *testing.T) {
	t.Chdir("..")
	exists := func(p string) bool { _, err := os.Stat(p); return err == nil }
	named := 0
	for _, doc := range []string{"CONTRIBUTING.md", "docs/architecture.md"} {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for n, line := range strings.Split(string(data), "\n") {
			dir := ""
			if first, _, ok := strings.Cut(strings.TrimPrefix(line, "| "), " |"); ok && strings.HasPrefix(line, "| `") {
				if m := codePath.FindStringSubmatch(first); m != nil {
					dir = m[1]
					if !strings.HasSuffix(dir, "/") {
						dir = path.Dir(dir)
					}
				}
			}
			for _, m := range codePath.FindAllStringSubmatch(line, -1) {
				p := m[1]
				if strings.Contains(p, "NAME") || strings.Contains(p, "TARGET") || strings.Contains(p, "*") {
					continue // a pattern, not a file
				}
				if !strings.Contains(strings.TrimSuffix(p, "/"), "/") && dir == "" {
					continue // a file of a folder the prose names (a dialect's doc.md)
				}
				named++
				if exists(p) || dir != "" && exists(path.Join(dir, p)) {
					continue
				}
				if some, _ := filepath.Glob(path.Join("*", p)); len(some) > 0 && strings.Contains(p, "/") {
					continue // a folder every package may have: testdata/fuzz/
				}
				t.Errorf("%s:%d: %s does not exist", doc, n+1, p)
			}
		}
	}
	if named < 100 {
		t.Errorf("only %d names of files read", named)
	}
}

// TestReadmeListsEveryDocsPage: the README's list of documentation links
// every page of docs/.
func TestReadmeListsEveryDocsPage(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	pages, err := filepath.Glob("../docs/*.md")
	if err != nil || len(pages) < 10 {
		t.Fatalf("%d pages in docs/: %v", len(pages), err)
	}
	for _, p := range pages {
		if link := "](docs/" + filepath.Base(p) + ")"; !strings.Contains(string(readme), link) {
			t.Errorf("README.md does not link docs/%s", filepath.Base(p))
		}
	}
}

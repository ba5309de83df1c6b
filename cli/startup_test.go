package cli

import (
	"bufio"
	"bytes"
	"debug/buildinfo"
	"debug/elf"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Every command pays for the initialisation of every package linked in,
// so a small log's translation costs little more than the process start
// only while no package does much work in its init. The runtime reports
// each package init's allocations (GODEBUG=inittrace=1); they depend on
// the code, not on the machine's speed or load (from run to run they
// differ by a few hundred bytes at most), so the bounds below are
// checked without timing anything. A package that goes over them should
// do its work on first use (sync.OnceValue) instead.
func TestStartupInitAllocatesLittle(t *testing.T) {
	const (
		ours  = 32 << 10  // each zevo package
		other = 256 << 10 // each library (gojq and the Markdown parser come near)
		// All of them: 331 KB, 219 KB of it gojq's, which no command
		// can leave out. The Markdown parser under urfave/cli's man
		// page code took 214 KB more, OTLP's data model 90 KB, a JSON
		// Schema library alone 1.7 MB.
		total = 400 << 10
	)
	cmd := exec.Command(zevoBinary(t), "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("zevo --version: %v\n%s", err, stderr.String())
	}
	sum, pkgs := 0, 0
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		// init PKG @T ms, T ms clock, N bytes, N allocs
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" || f[8] != "bytes," {
			continue
		}
		n, err := strconv.Atoi(f[7])
		if err != nil {
			t.Fatalf("inittrace line %q: %v", sc.Text(), err)
		}
		pkgs++
		sum += n
		limit := other
		if strings.HasPrefix(f[1], "github.com/zevo/zevo/") {
			limit = ours
		}
		if n > limit {
			t.Errorf("package %s allocates %d bytes in its init, more than %d: make that work lazy", f[1], n, limit)
		}
	}
	if pkgs < 50 {
		t.Fatalf("only %d inittrace lines:\n%s", pkgs, stderr.String())
	}
	if sum > total {
		t.Errorf("package inits allocate %d bytes in all, more than %d", sum, total)
	}
}

// TestNoHeavyLibraryLinked: a library's package initialisation runs on
// every command, whether it uses the library or not. These cost each
// command tens to hundreds of thousands of instructions at start (OTLP's
// Go model and the JSON library under it, with the feature-gate registry
// and its version parser; a progress bar library and its colour tables)
// for what one command needs: a few fixed messages, which otel/otlp.go
// encodes, and one line on a terminal (cli/progress.go). The modules
// linked are read from the binary's build information.
func TestNoHeavyLibraryLinked(t *testing.T) {
	heavy := []string{
		"go.opentelemetry.io/collector/pdata",
		"go.opentelemetry.io/collector/featuregate",
		"github.com/json-iterator/go",
		"github.com/modern-go/reflect2",
		"github.com/hashicorp/go-version",
		// a terminal progress bar with colour markup, for stats' one line
		"github.com/schollz/progressbar/v3",
		"github.com/mitchellh/colorstring",
		// urfave/cli's man page through Markdown: a dozen regular
		// expressions and an HTML entity table at init (about 1.3
		// million instructions); zevo writes its page itself and builds
		// with urfave_cli_no_docs (the README's install line)
		"github.com/cpuguy83/go-md2man/v2",
		"github.com/russross/blackfriday/v2",
		// its zstd package links a Snappy converter whose two packages
		// build the CRC-32C table at init (1.26 million instructions, a
		// fifth of a small translation); internal/input decodes zstd
		"github.com/klauspost/compress",
	}
	info, err := buildinfo.ReadFile(zevoBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(info.Deps) < 5 {
		t.Fatalf("only %d modules in the build information", len(info.Deps))
	}
	for _, m := range info.Deps {
		for _, h := range heavy {
			if m.Path == h {
				t.Errorf("zevo links %s %s: its initialisation runs on every command", m.Path, m.Version)
			}
		}
	}
}

// TestReadmeInstallLine: the README installs zevo as the tests build it
// (zevoBinary), so that what they check of the start-up is what users
// get.
func TestReadmeInstallLine(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		installEnv + " go install -tags " + installTags + " github.com/zevo/zevo/cmd/zevo@latest",
		installEnv + " go install -tags " + installTags + " ./cmd/zevo",
		installEnv + " go build -tags " + installTags + " -o zevo ./cmd/zevo",
	} {
		if !strings.Contains(strings.Join(strings.Fields(string(readme)), " "), want) {
			t.Errorf("README.md does not say %q", want)
		}
	}
}

// TestStaticBinary: built as the README says, zevo loads no C library:
// the dynamic loader and libc's start cost each command about half a
// million instructions and a hundred page faults.
func TestStaticBinary(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads an ELF binary")
	}
	f, err := elf.Open(zevoBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("zevo asks for a dynamic loader")
		}
	}
	if libs, err := f.ImportedLibraries(); err != nil || len(libs) > 0 {
		t.Errorf("zevo links C libraries %v (%v)", libs, err)
	}
}

// TestOnlyNetUsesCgo: the README's CGO_ENABLED=0 changes one thing, how
// net resolves host names (README, Install). A package that needs cgo
// for more than that would change what that build does.
func TestOnlyNetUsesCgo(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	cmd := exec.Command("go", "list", "-deps", "-f", "{{if .CgoFiles}}{{.ImportPath}}{{end}}", "github.com/zevo/zevo/cmd/zevo")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("go list with cgo: %v", err) // no C compiler: nothing to compare
	}
	pkgs := strings.Fields(string(out))
	for _, p := range pkgs {
		if p != "net" && p != "runtime/cgo" {
			t.Errorf("%s uses cgo: CGO_ENABLED=0 would change it too (README, Install)", p)
		}
	}
	if !slices.Contains(pkgs, "net") {
		t.Errorf("cgo packages %v: net is not among them; if nothing needs cgo, the README's CGO_ENABLED=0 can go", pkgs)
	}
}

// TestNewAppAllocatesLittle: every run builds the whole command tree
// (newApp) before it does anything, so building it must stay cheap: about
// four allocations a flag. A flag's own Names() in urfave/cli runs a
// regular expression (five more allocations and thousands of
// instructions each); the tree asks only the cached names (cachedNames).
func TestNewAppAllocatesLittle(t *testing.T) {
	e := newEnv(strings.NewReader(""), io.Discard, io.Discard)
	app := newApp(e)
	flags := len(app.Flags)
	for _, c := range app.Commands {
		flags += len(c.Flags)
	}
	if flags < 50 {
		t.Fatalf("only %d flags", flags)
	}
	allocs := testing.AllocsPerRun(10, func() { newApp(e) })
	if perFlag := allocs / float64(flags); perFlag > 5 {
		t.Errorf("newApp: %.0f allocations for %d flags, %.1f a flag, more than 5", allocs, flags, perFlag)
	}
}

// TestNoRegexpCompiledAtInit: compiling a regular expression allocates
// kilobytes, paid by every command when it is a package-level variable;
// a package compiles it on first use (sync.OnceValue) instead.
func TestNoRegexpCompiledAtInit(t *testing.T) {
	workAtInit(t, func(pkg, name string) bool {
		return pkg == "regexp" && strings.Contains(name, "Compile")
	})
}

// TestNoHashComputedAtInit: hashing at init (a checksum of a constant, a
// CRC table) costs every command tens of thousands of instructions, more
// than a small translation's own work; it belongs on first use.
func TestNoHashComputedAtInit(t *testing.T) {
	hashes := map[string]bool{"sha256": true, "sha512": true, "sha1": true, "md5": true, "crc32": true, "crc64": true}
	workAtInit(t, func(pkg, _ string) bool { return hashes[pkg] })
}

// workAtInit reports every call to a function that costly(package,
// function) picks that runs when zevo's packages initialise: in the
// value of a package-level variable, a function literal called there
// included (one that is only assigned runs when called, not at init).
func workAtInit(t *testing.T, costly func(pkg, name string) bool) {
	t.Helper()
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			called := map[*ast.FuncLit]bool{}
			ast.Inspect(g, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CallExpr:
					if lit, ok := n.Fun.(*ast.FuncLit); ok {
						called[lit] = true
					}
				case *ast.FuncLit:
					return called[n]
				case *ast.SelectorExpr:
					if x, ok := n.X.(*ast.Ident); ok && costly(x.Name, n.Sel.Name) {
						t.Errorf("%s: %s.%s runs at init (a package-level variable)", fset.Position(n.Pos()), x.Name, n.Sel.Name)
					}
				}
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("only %d Go files read", files)
	}
}

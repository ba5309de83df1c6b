package dialects

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/zevo/zevo/event"
)

// Every line of every real capture goes to its own agent's dialect when
// the whole registry reads it, and every run ends as the capture's agent
// ended it or is closed at the end of the input.
func TestRegistryReadsEveryCaptureAsItsAgent(t *testing.T) {
	files, err := filepath.Glob("../testdata/captures/*/*.jsonl")
	if err != nil || len(files) < 8 {
		t.Fatalf("%d captures: %v", len(files), err)
	}
	own, _ := filepath.Glob("*/testdata/captures/*.jsonl") // a dialect folder's own
	for _, f := range append(files, own...) {
		agent := filepath.Base(filepath.Dir(f))
		if filepath.Base(filepath.Dir(filepath.Dir(f))) == "testdata" {
			agent = filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(f))))
		}
		want, ok := ByName(agent)
		if !ok {
			t.Fatalf("%s: no dialect named %s", f, agent)
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		in := NewInput(event.DecodeOptions{})
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 64<<20)
		events := 0
		for num := 1; sc.Scan(); num++ {
			line := bytes.TrimSpace(sc.Bytes())
			if len(line) == 0 {
				continue
			}
			in.Line(line, num, func(ev *event.Event, st event.Step) {
				if ev == nil {
					return
				}
				events++
				if ev.Dialect != want.Name {
					t.Errorf("%s:%d: read as %s", f, num, ev.Dialect)
				}
			})
		}
		in.End(func(*event.Event, event.Step) {})
		if events == 0 || in.Runs() == 0 {
			t.Errorf("%s: %d events, %d runs", f, events, in.Runs())
		}
	}
}

// A tool's effect is one, whichever dialect names it: the registry's
// table (Effects) holds every dialect's tools as each states them.
func TestDialectsAgreeOnToolEffects(t *testing.T) {
	by := map[string]*event.Dialect{}
	all := Effects()
	for _, d := range All {
		for name, eff := range d.Effects {
			if o := by[name]; o != nil && o.Effects[name] != eff {
				t.Errorf("tool %s: %s says %s, %s says %s", name, o.Name, o.Effects[name], d.Name, eff)
			}
			by[name] = d
			if got := all.Of(name); got != eff {
				t.Errorf("tool %s of %s: the registry's table says %s, want %s", name, d.Name, got, eff)
			}
		}
	}
	if len(by) < 60 {
		t.Errorf("only %d tools have an effect", len(by))
	}
}

// What the commands ask of a dialect instead of naming it: its
// producer's name for people, and, for a dialect zevo writes, how its
// output tells exec the exit status and how its CLI ends where the
// output tells none.
func TestEveryDialectSaysWhatTheCommandsAsk(t *testing.T) {
	for _, d := range All {
		if d.Title == "" {
			t.Errorf("%s: no Title", d.Name)
		}
		if Writes(d) && d.Outcome == nil {
			t.Errorf("%s: written by zevo, and no Outcome for exec", d.Name)
		}
		if x := d.Exits; Writes(d) && (x.Open <= 0 || x.Interrupt <= 0 || x.Terminate <= 0) {
			t.Errorf("%s: written by zevo, and no exit status for exec where its lines tell none: %+v", d.Name, x)
		}
		if d == PromptInput && d.Prompt == nil {
			t.Errorf("%s: exec reads its prompt from its input events, and it has no Prompt", d.Name)
		}
		if d.Host != nil && !Writes(d) {
			t.Errorf("%s: exec would stand in for its producer, and zevo does not write it", d.Name)
		}
	}
}

// A dialect's schema names itself by where it is: its folder.
func TestDialectSchemasNameTheirFile(t *testing.T) {
	for _, d := range All {
		if _, err := os.Stat(d.Name); d.Schema == nil || err != nil {
			continue // no schema, or a dialect made in a test, without a folder
		}
		var head struct {
			ID string `json:"$id"`
		}
		if err := json.Unmarshal(d.Schema, &head); err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
		if want := SchemaURL(d); head.ID != want {
			t.Errorf("%s: $id %q, want %q", d.Name, head.ID, want)
		}
		if b, err := os.ReadFile(filepath.Join(d.Name, d.Name+".schema.json")); err != nil || !bytes.Equal(b, d.Schema) {
			t.Errorf("%s: its Schema is not its folder's %s.schema.json (%v)", d.Name, d.Name, err)
		}
	}
}

// A dialect whose lines follow several schemas ships each in its folder,
// under the $id it was published with; every schema name is told apart.
func TestDialectVersionsAreTheirFolders(t *testing.T) {
	names := map[string]bool{}
	for _, d := range All {
		for _, s := range d.SchemaList() {
			for _, n := range s.Names() {
				if names[n] {
					t.Errorf("%s names two schemas", n)
				}
				names[n] = true
			}
		}
		if d.Versions == nil {
			continue
		}
		if d.Schema != nil {
			t.Errorf("%s: both Schema and Versions", d.Name)
		}
		for _, s := range d.Versions {
			b, err := os.ReadFile(filepath.Join(d.Name, s.File))
			if err != nil || !bytes.Equal(b, s.Text) {
				t.Errorf("%s: schema %s is not its folder's %s (%v)", d.Name, s.Name, s.File, err)
			}
			var head struct {
				ID string `json:"$id"`
			}
			if err := json.Unmarshal(s.Text, &head); err != nil || head.ID != "https://github.com/zevo/zevo/schemas/"+s.File {
				t.Errorf("%s: $id %q: not the one %s was published with (%v)", d.Name, head.ID, s.File, err)
			}
		}
	}
}

func TestByNameKnowsNamesAndAliases(t *testing.T) {
	seen := map[string]bool{}
	for _, d := range All {
		for _, n := range append([]string{d.Name}, d.Aliases...) {
			if seen[n] {
				t.Errorf("%s names two dialects", n)
			}
			seen[n] = true
			if got, ok := ByName(n); !ok || got != d {
				t.Errorf("ByName(%s) = %v", n, got)
			}
		}
	}
	if _, ok := ByName("nope"); ok {
		t.Error("an unknown name found")
	}
}

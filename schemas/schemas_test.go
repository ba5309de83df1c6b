package schemas

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestSchemas(t *testing.T) {
	for _, s := range All {
		var doc map[string]any
		if err := json.Unmarshal(s.Bytes(), &doc); err != nil {
			t.Fatalf("%s: %v", s.File, err)
		}
		if doc["$id"] != s.URL() || doc["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
			t.Errorf("%s: $id %v, $schema %v", s.File, doc["$id"], doc["$schema"])
		}
		got, err := Lookup(s.Name)
		if err != nil || got != s {
			t.Errorf("Lookup(%q) = %v, %v", s.Name, got, err)
		}
	}
	if s, err := Lookup("zero@2"); err != nil || s.Name != "zero" {
		t.Errorf("zero@2: %v %v", s, err)
	}
	if _, err := Lookup("zero@3"); err == nil || !strings.Contains(err.Error(), "want zero, zero@1, zero-input, evosci") {
		t.Errorf("zero@3: %v", err)
	}
}

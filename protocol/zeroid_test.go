package protocol

import (
	"regexp"
	"strings"
	"testing"
)

func TestIsZeroIDIsThePattern(t *testing.T) {
	re := regexp.MustCompile(ZeroIDPattern)
	for _, s := range []string{"", "r", "run_20260101000000_abcdef", "-r", "_r", "r-", "a:b.c_d-e", "bad id!", "r\u00fcn", "r\n",
		strings.Repeat("r", 128), strings.Repeat("r", 129), "9", "Z.", "a/b"} {
		if IsZeroID(s) != re.MatchString(s) {
			t.Errorf("IsZeroID(%q) = %v, the pattern says %v", s, IsZeroID(s), re.MatchString(s))
		}
	}
	for _, f := range []string{ZeroV1.SchemaFile, ZeroV2.SchemaFile} {
		if !strings.Contains(string(schemaText(t, ZeroV2.Family, f)), `"pattern": "`+ZeroIDPattern+`"`) {
			t.Errorf("%s does not give runId the pattern %s", f, ZeroIDPattern)
		}
	}
}

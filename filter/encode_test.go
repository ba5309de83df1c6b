package filter

import (
	"encoding/json"
	"math"
	"math/big"
	"testing"
)

func TestEncode(t *testing.T) {
	big1, _ := new(big.Int).SetString("18446744073709551617", 10)
	for _, tc := range []struct {
		v     any
		ascii bool
		want  string
	}{
		{map[string]any{"b": []any{1, 2.5, nil, true}, "a": "x"}, false, `{"a":"x","b":[1,2.5,null,true]}`},
		{"\x01\x7f\"\\/\t\n\r\b\fé😀", false, `"\u0001\u007f\"\\/\t\n\r\b\fé😀"`},
		{"é😀", true, `"\u00e9\ud83d\ude00"`},
		{"bad \xff utf8", false, "\"bad \uFFFD utf8\""},
		{"bad \xff utf8 \x01", true, `"bad \ufffd utf8 \u0001"`},
		{json.Number("1.50"), false, `1.50`},
		{big1, false, `18446744073709551617`},
		{math.NaN(), false, `null`},
		{math.Inf(-1), false, `-1.7976931348623157e+308`},
		{1e-7, false, `1e-07`},
		{123456789.5, false, `123456789.5`},
		{1e17, false, `1e+17`},
		{-3.0, false, `-3`},
		{[]any{}, false, `[]`},
		{map[string]any{}, false, `{}`},
	} {
		e := encoder{ascii: tc.ascii}
		if got := string(e.append(nil, tc.v)); got != tc.want {
			t.Errorf("%#v: got %s, want %s", tc.v, got, tc.want)
		}
	}
}

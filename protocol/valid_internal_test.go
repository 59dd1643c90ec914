package protocol

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// FuzzValidJSON checks validJSON against json.Valid on valid UTF-8 within
// json.Valid's depth limit: the same answer for every input.
func FuzzValidJSON(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"attack":{"to":[1,2]}}`, ` {"a" : [1, -0.5e+3, "x\u00e9\n", true, false, null, {}]} `,
		`{"a":01}`, `{"a":1.}`, `{"a":-}`, `{"a":"\x"}`, `{"a":"\u12"}`, `{"a":[1,]}`, `{"a":1,}`, `{,}`,
		`{"a" 1}`, `{"a":tru}`, `{"a":nul}`, "{\"a\":\"\t\"}", `[1]`, `1`, `"s"`, ``, ` `, `{}{}`, `{"a":[]]}`,
		`{"a":[[[[]]]]}`, `{"a":{"b":{}}}`, `{"a":1e}`, `{"a":1E+}`, `{"a":-01}`, `{"a":"\/"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) || strings.Count(s, "[")+strings.Count(s, "{") >= 10000 {
			return
		}
		ok, err := validJSON([]byte(s))
		require.NoError(t, err)
		require.Equal(t, json.Valid([]byte(s)), ok, "%q", s)
	})
}

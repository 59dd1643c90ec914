package wire

import (
	"testing"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// FuzzFastAction checks the fast action decoder against DecodeAction: for
// every line both give the same action, or the fast path declines.
func FuzzFastAction(f *testing.F) {
	for _, s := range []string{
		`{"attack":{"to":[1,1]}}`, `{"move":{"ship":"w","to":[0,1]}}`, `{"attack": {"to": [4, 0]}}`,
		`{"move": {"ship": "s", "to": [3, 3]}}`, `{"attack":{"to":[01,1]}}`, `{"attack":{"to":[9999,1]}}`,
		`{"attack":{"to":[1,1]}} `, `{"move":{"ship":"zz","to":[0,1]}}`, `{"move":{"ship":"","to":[0,1]}}`,
		`{"attack":{"to":[1,1],"x":1}}`, `{"attack":{"to":[-1,1]}}`, `{"move":{"ship":"w\u0000","to":[0,1]}}`,
		`{"attack":{"to":[1,1]}}}`, `{"move":{"ship":"w","to":[0,1.0]}}`, `{"attack":  {"to":  [2,  2]}}`,
	} {
		f.Add(s)
	}
	rules := []*submarine.Rules{submarine.DefaultRules(), func() *submarine.Rules {
		r := submarine.DefaultRules()
		r.Board = grid.MustBoard(6, 5, []grid.Cell{0, 5, 24, 29})
		return r
	}()}
	f.Fuzz(func(t *testing.T, line string) {
		for _, r := range rules {
			want, werr := DecodeAction([]byte(line), r)
			if got, ok := fastAction([]byte(line), r); ok {
				if werr != nil || got != want {
					t.Fatalf("%q: fast path %+v, DecodeAction %+v, %v", line, got, want, werr)
				}
			}
			got, err := DecodeActionFast([]byte(line), r)
			if got != want || (err == nil) != (werr == nil) {
				t.Fatalf("%q: DecodeActionFast %+v, %v; DecodeAction %+v, %v", line, got, err, want, werr)
			}
		}
	})
}

// BenchmarkDecodeActionFast is BenchmarkDecodeAction's line through the
// fast path.
func BenchmarkDecodeActionFast(b *testing.B) {
	r := submarine.DefaultRules()
	line := []byte(`{"move":{"ship":"w","to":[1,2]}}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeActionFast(line, r); err != nil {
			b.Fatal(err)
		}
	}
}

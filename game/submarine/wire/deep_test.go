package wire_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/game/submarine/wire"
	"github.com/kaisen-ai/kaisen/protocol"
)

// nested is a valid JSON array nested depth deep.
func nested(depth int) string {
	return strings.Repeat("[", depth) + strings.Repeat("]", depth)
}

// TestDeepUnknownKey: valid JSON nested deeper than encoding/json's limit
// of 10,000 inside a key the decoder tolerates is accepted (it made the
// action a protocol error); deeper than protocol.MaxNesting is a syntax
// error, not a crash.
func TestDeepUnknownKey(t *testing.T) {
	r := submarine.DefaultRules()
	invalid := submarine.Action{Kind: submarine.Invalid, Ship: submarine.NoShip, To: grid.None}
	at11, _ := r.Board.At(1, 1)
	for _, tc := range []struct {
		name, line string
		want       submarine.Action
		err        string // "" = no error
	}{
		{"deep array", `{"attack":{"to":[1,1]},"x":` + nested(20000) + `}`, submarine.AttackAt(at11), ""},
		{"deep objects", `{"x":` + strings.Repeat(`{"a":`, 20000) + "1" + strings.Repeat("}", 20000) + `,"attack":{"to":[1,1]}}`, submarine.AttackAt(at11), ""},
		{"deep inside the attack", `{"attack":{"to":[1,1],"why":` + nested(20000) + `}}`, submarine.AttackAt(at11), ""},
		{"deep alone", `{"x":` + nested(20000) + `}`, invalid, ""},
		{"at the limit", `{"x":` + nested(protocol.MaxNesting-1) + `}`, invalid, ""},
		{"over the limit", `{"x":` + nested(protocol.MaxNesting) + `}`, invalid, "nested deeper than"},
		{"deep and broken", `{"x":` + nested(20000) + `]}`, invalid, "invalid JSON"},
		{"deep and unclosed", `{"x":` + strings.Repeat("[", 20000) + `}`, invalid, "invalid JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := wire.DecodeAction([]byte(tc.line), r)
			if tc.err != "" {
				require.ErrorIs(t, err, protocol.ErrSyntax)
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}

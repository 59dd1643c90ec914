package wire_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/game/submarine/wire"
	"github.com/kaisen-ai/kaisen/protocol"
	"github.com/kaisen-ai/kaisen/protocol/transcript"
)

// goldenLines returns every protocol line of the golden transcripts with its
// direction and whether a result line answers the side's own action.
type seedLine struct {
	text    string
	dir     transcript.Dir
	dialect protocol.Dialect
	mine    bool
}

func goldenLines(f *testing.F) []seedLine {
	f.Helper()
	paths, err := filepath.Glob("testdata/*.golden")
	require.NoError(f, err)
	require.NotEmpty(f, paths)
	var out []seedLine
	for _, p := range paths {
		tr, err := transcript.Load(p)
		require.NoError(f, err)
		d, err := protocol.ParseDialect(tr.Get("dialect"))
		require.NoError(f, err)
		for player := 1; player <= 2; player++ {
			last := ""
			for _, l := range tr.Side(player) {
				out = append(out, seedLine{text: l.Text, dir: l.Dir, dialect: d, mine: last == protocol.YourTurn})
				if l.Dir == transcript.ToClient {
					last = l.Text
				}
			}
		}
	}
	return out
}

func fuzzRules(py bool) *submarine.Rules {
	if py {
		b, _ := grid.Rounded(6, 5)
		return &submarine.Rules{Board: b, Fleet: submarine.DefaultFleet(), DrawLimit: 100}
	}
	return submarine.DefaultRules()
}

func checkProtocolError(t *testing.T, line []byte, err error) {
	t.Helper()
	var pe *protocol.ProtocolError
	require.ErrorAs(t, err, &pe)
	require.True(t, strings.HasPrefix(string(line), pe.Line))
	require.LessOrEqual(t, len(pe.Line), protocol.MaxQuote)
}

func FuzzDecodePlacement(f *testing.F) {
	for _, l := range goldenLines(f) {
		if l.dir == transcript.ToServer && strings.Contains(l.text, `"w"`) && !strings.Contains(l.text, "move") {
			f.Add([]byte(l.text), l.dialect == protocol.SubmarinePy)
		}
	}
	for _, s := range []string{`{"w":[0,0],"c":[0,0],"s":[4,0]}`, `{"w":[0,0],"c":[5,0],"s":[4,0]}`, `{"w":[0,0],"c":[1,0],"s":[2,0],"x":[3,0]}`, `{"w":[0,0]}`, `{"w":[0,1.5],"c":[1,1],"s":[2,2]}`} {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, line []byte, py bool) {
		r := fuzzRules(py)
		p, o, err := wire.DecodePlacement(line, r)
		if err != nil {
			checkProtocolError(t, line, err)
			return
		}
		require.NoError(t, r.ValidatePlacement(p))
		require.ElementsMatch(t, wire.DefaultOrder(r), o)
		for _, d := range []protocol.Dialect{protocol.Classic, protocol.SubmarinePy} {
			back, bo, err := wire.DecodePlacement(wire.EncodePlacement(d, r, p), r)
			require.NoError(t, err)
			require.Equal(t, p, back)
			require.Equal(t, wire.DefaultOrder(r), bo)
		}
	})
}

func FuzzDecodeAction(f *testing.F) {
	for _, l := range goldenLines(f) {
		if l.dir == transcript.ToServer {
			f.Add([]byte(l.text), l.dialect == protocol.SubmarinePy)
		}
	}
	for _, s := range []string{`{"attack":{"to":[1,1]},"move":{"ship":"w","to":[0,3]}}`, `hello`, `{"attack":{"to":[0,1.5]}}`, `{"move":{"ship":"x","to":[0,1]}}`, `{}`} {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, line []byte, py bool) {
		r := fuzzRules(py)
		a, err := wire.DecodeAction(line, r)
		if err != nil {
			checkProtocolError(t, line, err)
			require.Equal(t, submarine.Invalid, a.Kind)
			return
		}
		for _, d := range []protocol.Dialect{protocol.Classic, protocol.SubmarinePy} {
			back, err := wire.DecodeAction(wire.EncodeAction(d, r, a), r)
			require.NoError(t, err)
			require.Equal(t, a, back)
		}
	})
}

func FuzzDecodeResult(f *testing.F) {
	for _, l := range goldenLines(f) {
		if l.dir == transcript.ToClient && strings.HasPrefix(l.text, "{") && !strings.Contains(l.text, `"height"`) {
			f.Add([]byte(l.text), l.dialect == protocol.SubmarinePy, l.mine)
		}
	}
	f.Add([]byte(`{"result":{"attacked":{"position":[1,1],"hit":"w","near":["s","s","w"]}},"condition":{"me":{},"enemy":{"c":{"hp":1}}}}`), false, true)
	f.Fuzz(func(t *testing.T, line []byte, py bool, mine bool) {
		r := fuzzRules(py)
		d := protocol.Classic
		if py {
			d = protocol.SubmarinePy
		}
		res, err := wire.DecodeResult(d, line, r, mine)
		if err != nil {
			checkProtocolError(t, line, err)
			return
		}
		require.Contains(t, []int{protocol.NoOutcome, protocol.Lost, protocol.Won}, res.Outcome)
		require.Equal(t, res.View.Me.Alive.Count(), res.View.Me.Occupied.Count())
		// Re-encoding and decoding again gives the same result, except for a
		// "moved" result on the reader's own side, which the server never
		// sends (the mover gets no result key).
		for _, d2 := range []protocol.Dialect{protocol.Classic, protocol.SubmarinePy} {
			enc := wire.EncodeResult(d2, r, res.Event, res.Outcome, &res.View, nil, nil)
			back, err := wire.DecodeResult(d2, enc, r, mine)
			require.NoError(t, err, "%s", enc)
			require.Equal(t, res.View, back.View)
			require.Equal(t, res.Outcome, back.Outcome)
			if !(mine && res.Event.Kind == submarine.Move) {
				require.Equal(t, res.Event, back.Event, "%s", enc)
			}
		}
	})
}

func FuzzDecodeField(f *testing.F) {
	for _, l := range goldenLines(f) {
		if strings.Contains(l.text, `"height"`) {
			f.Add([]byte(l.text))
		}
	}
	f.Add([]byte(`{"height": 5, "width": 5, "rock": [[0, 0], [4, 4]]}`))
	f.Add([]byte(`{"height": 16, "width": 16}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		b, err := wire.DecodeField(line)
		if err != nil {
			checkProtocolError(t, line, err)
			return
		}
		back, err := wire.DecodeField(wire.EncodeField(b))
		require.NoError(t, err)
		require.Equal(t, b.Shape(), back.Shape())
	})
}

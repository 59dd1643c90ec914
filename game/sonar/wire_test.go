package sonar

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/protocol"
)

// lines is a connection as a codec sees it (game.Lines): what it wrote.
type lines struct{ out [][]byte }

func (l *lines) Read(string) ([]byte, error) { return nil, errors.New("nothing to read") }
func (l *lines) Write(line []byte) error {
	l.out = append(l.out, append([]byte(nil), line...))
	return nil
}

// TestWireRoundTrip plays seeded random games and sends every placement,
// action and told line through the wire: each comes back as it went.
func TestWireRoundTrip(t *testing.T) {
	r := DefaultRules()
	srv := NewServerCodec(r)
	rng := rand.New(rand.NewPCG(26, 1))
	for range 20 {
		var pl [2]Placement
		for s := range pl {
			var l lines
			cl := NewClientCodec(r)
			_, err := cl.Open(&l)
			require.NoError(t, err)
			for _, c := range rng.Perm(r.Cells())[:r.Boats] {
				pl[s] = append(pl[s], Cell(c))
			}
			require.NoError(t, cl.Place(pl[s]))
			got, err := srv.DecodePlacement(s, l.out[0])
			require.NoError(t, err)
			require.Equal(t, pl[s], got)
		}
		g, err := r.Start(pl, 0)
		require.NoError(t, err)
		for g.Status() == game.Running {
			legal := r.Legal(g)
			a := legal[rng.IntN(len(legal))]
			got, err := srv.DecodeAction(r.EncodeAction(a))
			require.NoError(t, err)
			require.Equal(t, a, got)
			st, err := g.Apply(a)
			require.NoError(t, err)
			for seat := range 2 {
				var o, back Told
				require.True(t, r.Tell(g, &st, nil, seat, &o))
				outcome := protocol.NoOutcome
				if g.Status() == game.Won {
					outcome = protocol.Lost
					if g.Winner() == seat {
						outcome = protocol.Won
					}
				}
				line := srv.AppendTold(nil, seat, &o, outcome)
				gotOutcome, err := r.DecodeTold(line, &back)
				require.NoError(t, err, "%s", line)
				require.Equal(t, o, back, "%s", line)
				require.Equal(t, outcome, gotOutcome, "%s", line)
			}
		}
	}
}

// TestWireLines pins the lines of the protocol.
func TestWireLines(t *testing.T) {
	r := DefaultRules()
	require.Equal(t, `{"action":"ping","at":[2,1]}`, string(r.EncodeAction(Action{Kind: Ping, At: 6})))
	require.Equal(t, `{"action":"move","boat":1,"at":[0,3]}`, string(r.EncodeAction(Action{Kind: Move, Boat: 1, At: 12})))
	for _, c := range []struct {
		o       Told
		outcome int
		want    string
	}{
		{Told{Mine: true, Kind: Ping, At: 6, Echo: Near, Afloat: [2]int{2, 2}}, protocol.NoOutcome,
			`{"told":{"by":"me","action":"ping","at":[2,1],"echo":"near","afloat":[2,2]}}`},
		{Told{Kind: Move, At: None, Boat: -1, Afloat: [2]int{2, 1}}, protocol.NoOutcome,
			`{"told":{"by":"enemy","action":"move","afloat":[2,1]}}`},
		{Told{Mine: true, Kind: Move, At: 12, Boat: 1, Afloat: [2]int{2, 1}}, protocol.NoOutcome,
			`{"told":{"by":"me","action":"move","at":[0,3],"boat":1,"afloat":[2,1]}}`},
		{Told{Kind: Ping, At: 15, Echo: Hit, Afloat: [2]int{0, 1}}, protocol.Lost,
			`{"told":{"by":"enemy","action":"ping","at":[3,3],"echo":"hit","afloat":[0,1]},"outcome":false}`},
	} {
		require.Equal(t, c.want, string(r.EncodeTold(&c.o, c.outcome)))
	}
}

// TestWireRefuses: malformed lines are protocol errors that quote them.
func TestWireRefuses(t *testing.T) {
	r := DefaultRules()
	srv := NewServerCodec(r)
	for _, line := range []string{
		``, `{`, `[]`, `{"action":"ping"}`, `{"action":"ping","at":[4,0]}`, `{"action":"ping","at":[-1,0]}`,
		`{"action":"ping","at":[1,1],"boat":0}`, `{"action":"move","at":[1,1]}`, `{"action":"jump","at":[1,1]}`,
		`{"action":"ping","at":[1,1]} {}`, `{"action":"ping","at":[1,1],"x":1}`, `{"action":"ping","at":[1.5,1]}`,
	} {
		_, err := srv.DecodeAction([]byte(line))
		var pe *protocol.ProtocolError
		require.ErrorAs(t, err, &pe, "action %q", line)
		require.Equal(t, line, pe.Line)
	}
	for _, line := range []string{`{}`, `{"boats":[[0,0],[4,4]]}`, `{"boats":[0,1]}`, `{"boats":null}`} {
		_, err := srv.DecodePlacement(0, []byte(line))
		var pe *protocol.ProtocolError
		require.ErrorAs(t, err, &pe, "placement %q", line)
	}
	for _, line := range []string{
		`{"told":{"by":"me","action":"ping","at":[1,1],"afloat":[2,2]}}`,    // no echo
		`{"told":{"by":"enemy","action":"move","at":[1,1],"afloat":[2,2]}}`, // an enemy move's cell
		`{"told":{"by":"you","action":"ping","at":[1,1],"echo":"hit","afloat":[2,2]}}`,
		`{"told":{"by":"me","action":"ping","at":[1,1],"echo":"hit","afloat":[3,2]}}`, // more boats than the fleet
		`{"told":{"by":"me","action":"ping","at":[1,1],"echo":"hit"}}`,
		`{"outcome":true}`,
	} {
		var o Told
		_, err := r.DecodeTold([]byte(line), &o)
		var pe *protocol.ProtocolError
		require.ErrorAs(t, err, &pe, "told %q", line)
	}
}

// TestClientCodec: the client side reads a game's lines in order and
// refuses a told line out of turn or of the wrong seat.
func TestClientCodec(t *testing.T) {
	r := DefaultRules()
	c := NewClientCodec(r)
	round, err := c.Greet([]byte(protocol.ClassicGreeting))
	require.NoError(t, err)
	require.Zero(t, round)
	var l lines
	op, err := c.Open(&l)
	require.NoError(t, err)
	require.True(t, op.Fresh)
	require.NoError(t, c.Place(Placement{0, 5}))
	require.Equal(t, `{"boats":[[0,0],[1,1]]}`, string(l.out[0]))
	var o Told
	for _, step := range []struct {
		line string
		want game.Heard
		bad  bool
	}{
		{line: `{"told":{"by":"me","action":"ping","at":[2,1],"echo":"near","afloat":[2,2]}}`, bad: true}, // before a turn line
		{line: protocol.YourTurn, want: game.HeardTurn},
		{line: `{"told":{"by":"enemy","action":"move","afloat":[2,2]}}`, bad: true}, // not the seat's own
		{line: `{"told":{"by":"me","action":"ping","at":[2,1],"echo":"near","afloat":[2,2]}}`, want: game.HeardTold},
		{line: protocol.Waiting, want: game.HeardWait},
		{line: `{"told":{"by":"enemy","action":"move","afloat":[2,2]}}`, want: game.HeardTold},
		{line: protocol.Waiting, want: game.HeardWait},
		{line: `{"error":"timeout"}`, want: game.HeardNothing},
		{line: `{"outcome":true}`, want: game.HeardNothing},
		{line: `bogus`, bad: true},
	} {
		h, err := c.Decode([]byte(step.line), &o)
		if step.bad {
			var pe *protocol.ProtocolError
			require.ErrorAs(t, err, &pe, "line %q", step.line)
			continue
		}
		require.NoError(t, err, "line %q", step.line)
		require.Equal(t, step.want, h, "line %q", step.line)
	}
	require.Equal(t, []string{"timeout"}, c.(*ClientCodec).Errors())
	_, err = c.Greet([]byte("hello"))
	require.Error(t, err)
}

// FuzzWireDecode: no line makes a decoder panic, and every line one
// accepts encodes back to a line that decodes to the same value.
func FuzzWireDecode(f *testing.F) {
	r := DefaultRules()
	for _, seed := range []string{
		`{"action":"ping","at":[2,1]}`, `{"action":"move","boat":1,"at":[0,3]}`, `{"boats":[[0,0],[1,1]]}`,
		`{"told":{"by":"me","action":"ping","at":[2,1],"echo":"near","afloat":[2,2]}}`,
		`{"told":{"by":"enemy","action":"move","afloat":[2,1]},"outcome":true}`,
		`{"error":"x"}`, `{"outcome":false}`, protocol.YourTurn, `{"told":{}}`, `[`,
	} {
		f.Add([]byte(seed))
	}
	srv := NewServerCodec(r)
	f.Fuzz(func(t *testing.T, line []byte) {
		if a, err := srv.DecodeAction(line); err == nil {
			back, err := srv.DecodeAction(r.EncodeAction(a))
			require.NoError(t, err)
			require.Equal(t, a, back)
		}
		_, _ = srv.DecodePlacement(0, line)
		var o, back Told
		if outcome, err := r.DecodeTold(line, &o); err == nil {
			again, err := r.DecodeTold(r.EncodeTold(&o, outcome), &back)
			require.NoError(t, err)
			require.Equal(t, o, back)
			require.Equal(t, outcome, again)
		}
		for _, turn := range []string{protocol.YourTurn, protocol.Waiting} {
			c := NewClientCodec(r)
			_, _ = c.Open(&lines{})
			_, _ = c.Decode([]byte(turn), &o)
			_, _ = c.Decode(line, &o)
		}
	})
}

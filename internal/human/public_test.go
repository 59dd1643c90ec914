package human_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/internal/human"
	"github.com/kaisen-ai/kaisen/internal/race"
	"github.com/kaisen-ai/kaisen/players"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
)

// The seats' hygiene test. A game against an AI is played twice:
//
//  1. by the real host (PlayAgainstWith, PlayBattleshipAgainstWith)
//     against the real AI, recording the replay;
//  2. by a stand-in host that knows nothing of the AI: it feeds a fresh
//     seat, with the same typed input and random stream, only what the
//     rules tell that seat — the events of its own actions and of the
//     enemy's, and its View (its own fleet, the enemy's hit points) — as
//     the replay's actions give them.
//
// Everything the first run prints before the game is over (EndHeader)
// must be byte for byte what the second prints. The second run's output
// is by construction a function of the public events the person was told
// and of the person's input, so the first run's is too: the AI's fleet,
// its moves' targets and its reasons add 0.00 bits to any line printed
// during play. publicPrefix returns the first line that differs.

// subScript is a person who plays legally whatever happens, moving as
// well as attacking: each turn it tries ship moves first on one turn in
// three, then every cell as an attack from a rotating start; refused lines
// are answered and never sent.
func subScript(r *submarine.Rules, turns int, rng *rand.Rand) string {
	var sb strings.Builder
	sb.WriteString("r\n")
	n, w := r.Board.Size(), r.Board.Width()
	for k := range turns {
		if k%3 == 2 {
			for range 4 {
				c := rng.IntN(n)
				fmt.Fprintf(&sb, "m %s %d %d\n", r.Fleet[rng.IntN(len(r.Fleet))].Name, c%w, c/w)
			}
		}
		start := rng.IntN(n)
		for i := range n {
			c := (start + i) % n
			fmt.Fprintf(&sb, "a %d %d\n", c%w, c/w)
		}
	}
	return sb.String()
}

// bsScript places at random and types every cell once, in a random order.
func bsScript(r *battleship.Rules, rng *rand.Rand) string {
	var sb strings.Builder
	sb.WriteString("r\n")
	cells := make([]int, r.Board.Size())
	for i := range cells {
		cells[i] = i
	}
	rng.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
	for _, c := range cells {
		if r.Board.IsUsable(grid.Cell(c)) {
			sb.WriteString(r.Coord(grid.Cell(c), false) + "\n")
		}
	}
	return sb.String()
}

// publicPrefix checks that played (the real host's output) is public (the
// stand-in's) followed by EndHeader; the error quotes the first line that
// differs.
func publicPrefix(played, public string) error {
	if rest, ok := strings.CutPrefix(played, public); ok && strings.HasPrefix(rest, human.EndHeader+"\n") {
		return nil
	}
	pl, pu := lines(played), lines(public)
	for i := range min(len(pl), len(pu)) {
		if pl[i] != pu[i] {
			return fmt.Errorf("line %d during play: %q, but public events alone print %q", i+1, pl[i], pu[i])
		}
	}
	if len(pl) > len(pu) {
		return fmt.Errorf("line %d: %q where the game should be over (%q)", len(pu)+1, pl[len(pu)], human.EndHeader)
	}
	if len(pl) == len(pu) {
		return fmt.Errorf("the game ends without %q", human.EndHeader)
	}
	return errors.New("the played game printed less than its public events")
}

// lines splits s after each newline.
func lines(s string) []string {
	l := strings.SplitAfter(s, "\n")
	if l[len(l)-1] == "" {
		l = l[:len(l)-1]
	}
	return l
}

// subPublic is the stand-in host of a submarine game: from the replay it
// tells a fresh seat in seat `seat` only its own events and view.
func subPublic(t *testing.T, rp []byte, input string, me *rand.Rand, seat int) string {
	t.Helper()
	rec, err := subrecord.Read(bytes.NewReader(rp))
	require.NoError(t, err)
	require.NoError(t, subrecord.Verify(rec), "the replay verifies")
	r, err := rec.Rules()
	require.NoError(t, err)
	var out strings.Builder
	h := human.New(r, bufio.NewReader(strings.NewReader(input)), &out, me)
	require.Equal(t, rec.Placement(r, seat), h.Place(), "the person places as in the game")
	g, err := submarine.NewGame(r, rec.Placement(r, 0), rec.Placement(r, 1), 0)
	require.NoError(t, err)
	var v submarine.View
	g.ViewInto(seat, &v)
	h.Observe(submarine.Event{Kind: submarine.Invalid}, &v)
	for _, s := range rec.Steps {
		a, err := s.Action.Decode(r)
		require.NoError(t, err)
		if s.Seat == seat {
			require.Equal(t, a, h.Act(), "step %d: the person acts as in the game", s.N)
		}
		st, _ := g.Apply(a)
		ev := st.Other
		if s.Seat == seat {
			ev = st.Actor
		}
		g.ViewInto(seat, &v)
		h.Observe(ev, &v)
	}
	require.NotEqual(t, game.Running, g.Status())
	return out.String()
}

// bsPublic is subPublic for Battleship.
func bsPublic(t *testing.T, rp []byte, input string, me *rand.Rand, seat int) string {
	t.Helper()
	rec, err := bsrecord.Read(bytes.NewReader(rp))
	require.NoError(t, err)
	require.NoError(t, bsrecord.Verify(rec), "the replay verifies")
	r, err := rec.Rules()
	require.NoError(t, err)
	var out strings.Builder
	h := human.NewBattleship(r, bufio.NewReader(strings.NewReader(input)), &out, me)
	var place [2]battleship.Placement
	for s := range 2 {
		place[s], err = rec.Placement(r, s)
		require.NoError(t, err)
	}
	require.Equal(t, place[seat], h.Place(), "the person places as in the game")
	g, err := battleship.NewGame(r, place[0], place[1], 0)
	require.NoError(t, err)
	for _, s := range rec.Shots {
		require.NotNil(t, s.At, "shot %d on the board", s.N)
		c, ok := r.Board.At(s.At[1], s.At[0])
		require.True(t, ok, "shot %d on the board", s.N)
		if s.Seat == seat {
			require.Equal(t, c, h.Shoot(), "shot %d: the person shoots as in the game", s.N)
		}
		st, _ := g.Apply(c)
		ev := st.Defender
		if s.Seat == seat {
			ev = st.Shooter
		}
		h.Observe(ev)
	}
	require.NotEqual(t, game.Running, g.Status())
	return out.String()
}

// leakyAI is a planted leak: a host that writes the AI's placement to the
// person's terminal when the AI places.
type leakyAI struct {
	players.Player
	out io.Writer
}

func (l leakyAI) Place() submarine.Placement {
	p := l.Player.Place()
	fmt.Fprintf(l.out, "(the AI placed at %v)\n", p)
	return p
}

// TestSeatPrintsOnlyPublicEvents plays scripted games against every AI of
// every game with a human seat, in both seats, and requires the output
// before the end to be what the public events alone print; with
// --reveal-ai (Options.Reveal) or a planted leak it is not.
func TestSeatPrintsOnlyPublicEvents(t *testing.T) {
	seatPrintsOnlyPublic(t, false)
}

// slowSeatAIs are the AIs whose scripted games take a minute and more
// under the race detector: the seat tests play them in the full-size
// step (the FullSize tests), the others in the race step.
var slowSeatAIs = map[string]bool{"admiral": true, "admiral-series": true, "greedy": true, "adaptive": true, "density": true, "ab-belief": true}

// TestSeatPrintsOnlyPublicEventsFullSize is TestSeatPrintsOnlyPublicEvents
// against the slow AIs (slowSeatAIs).
func TestSeatPrintsOnlyPublicEventsFullSize(t *testing.T) {
	race.SkipFullSize(t)
	seatPrintsOnlyPublic(t, true)
}

// seatPrintsOnlyPublic plays the scripted games of
// TestSeatPrintsOnlyPublicEvents against the AIs of every game that are
// slow (slowSeatAIs) or, without slow, against the others.
func seatPrintsOnlyPublic(t *testing.T, slow bool) {
	var seated []string
	for _, g := range games.All() {
		if g.HumanLocal != nil {
			seated = append(seated, g.Name)
		}
	}
	require.ElementsMatch(t, []string{submarine.Name, battleship.Name, abilities.Name}, seated,
		"every game with a human seat is checked below (abilities: TestAbilitiesSeatPrintsOnlyPublicEvents)")

	sub := submarine.DefaultRules()
	sub.DrawLimit = 160
	for k, e := range players.Entries() {
		if slowSeatAIs[e.Name] != slow {
			continue
		}
		t.Run(submarine.Name+"/"+e.Name, func(t *testing.T) {
			t.Parallel()
			fac, err := e.Build(sub, nil)
			require.NoError(t, err)
			explained := 0
			for i := range 4 { // two games in each seat
				seat, seed := i%2, uint64(100*k+i)
				input := subScript(sub, 200, rand.New(rand.NewPCG(seed, 1)))
				play := func(opt human.Options, leak bool) (string, []byte) {
					var out strings.Builder
					var rp bytes.Buffer
					opt.Replay, opt.AI = &rp, e.Name
					h := human.New(sub, bufio.NewReader(strings.NewReader(input)), &out, rand.New(rand.NewPCG(seed, 2)))
					ai := fac(rand.New(rand.NewPCG(seed, 3)))
					if leak {
						ai = leakyAI{ai, &out}
					}
					_, _, err := human.PlayAgainstWith(sub, h, ai, seat, opt)
					require.NoError(t, err)
					require.False(t, h.EOF(), "the script lasts the game")
					return out.String(), rp.Bytes()
				}
				played, rp := play(human.Options{}, false)
				public := subPublic(t, rp, input, rand.New(rand.NewPCG(seed, 2)), seat)
				require.NoError(t, publicPrefix(played, public), "seat %d", seat)
				require.NotContains(t, public, "why:")

				after := played[len(public):]
				require.Contains(t, after, "the enemy fleet: ")
				why := 0
				if strings.Contains(string(rp), `"decision"`) {
					explained++
					require.Contains(t, after, "why "+e.Name+" chose each of its actions")
					revealed, _ := play(human.Options{Reveal: true}, false)
					err := publicPrefix(revealed, public)
					require.ErrorContains(t, err, "  why: ", "--reveal-ai prints what public events do not")
					why = strings.Count(revealed, "\n  why: ")
				} else {
					require.Contains(t, after, e.Name+" gave no reasons")
				}
				leaked, _ := play(human.Options{}, true)
				require.ErrorContains(t, publicPrefix(leaked, public), "the AI placed at", "a planted leak is caught")
				t.Logf("game %d, seat %d: %d lines during play, identical to the public events'; --reveal-ai adds %d why lines", i, seat, len(lines(public)), why)
			}
			if e.Name != "random" {
				require.Positive(t, explained, "%s explains its actions: the reveal check ran", e.Name)
			}
		})
	}

	bs := battleship.DefaultRules()
	for k, e := range bsplayers.Entries() {
		if slowSeatAIs[e.Name] != slow {
			continue
		}
		t.Run(battleship.Name+"/"+e.Name, func(t *testing.T) {
			t.Parallel()
			fac, err := e.Build(bs, nil)
			require.NoError(t, err)
			for seat := range 2 {
				seed := uint64(100*k + seat + 50)
				input := bsScript(bs, rand.New(rand.NewPCG(seed, 1)))
				play := func(opt human.Options) (string, []byte) {
					var out strings.Builder
					var rp bytes.Buffer
					opt.Replay, opt.AI = &rp, e.Name
					h := human.NewBattleship(bs, bufio.NewReader(strings.NewReader(input)), &out, rand.New(rand.NewPCG(seed, 2)))
					res, err := human.PlayBattleshipAgainstWith(bs, h, fac(rand.New(rand.NewPCG(seed, 3))), seat, opt)
					require.NoError(t, err)
					require.NoError(t, res.Err)
					return out.String(), rp.Bytes()
				}
				played, rp := play(human.Options{})
				public := bsPublic(t, rp, input, rand.New(rand.NewPCG(seed, 2)), seat)
				require.NoError(t, publicPrefix(played, public), "seat %d", seat)
				after := played[len(public):]
				require.Contains(t, after, "the enemy fleet: ")
				why := 0
				if strings.Contains(string(rp), `"decision"`) {
					require.Contains(t, after, "why "+e.Name+" chose each of its actions")
				}
				if strings.Contains(string(rp), `"decision"`) && seat == 0 { // once per AI: its games are long
					revealed, _ := play(human.Options{Reveal: true})
					require.ErrorContains(t, publicPrefix(revealed, public), "   why: ", "--reveal-ai prints what public events do not")
					why = strings.Count(revealed, "\n   why: ")
				}
				t.Logf("seat %d: %d lines during play, identical to the public events'; --reveal-ai adds %d why lines", seat, len(lines(public)), why)
			}
		})
	}
}

// TestPublicPrefix: the comparison itself.
func TestPublicPrefix(t *testing.T) {
	end := human.EndHeader + "\n"
	for _, tt := range []struct {
		played, public, err string
	}{
		{"a\nb\n" + end + "fleet\n", "a\nb\n", ""},
		{"a\n  why: x\nb\n" + end, "a\nb\n", `line 2 during play: "  why: x\n"`},
		{"a\nb\nc\n" + end, "a\nb\n", `line 3: "c\n" where the game should be over`},
		{"a\n" + end, "a\nb\n", `line 2 during play`},
		{"a\nb\n", "a\nb\n", "the game ends without"},
		{"a\n", "a\nb\n", "printed less"},
	} {
		err := publicPrefix(tt.played, tt.public)
		if tt.err == "" {
			require.NoError(t, err)
			continue
		}
		require.ErrorContains(t, err, tt.err)
	}
}

package human_test

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/human"
	"github.com/kaisen-ai/kaisen/players"
)

func seat(r *submarine.Rules, input string, out *strings.Builder) *human.Seat {
	return human.New(r, bufio.NewReader(strings.NewReader(input)), out, rand.New(rand.NewPCG(1, 1)))
}

func TestParse(t *testing.T) {
	r := submarine.DefaultRules()
	h := seat(r, "", &strings.Builder{})
	at := func(x, y int) grid.Cell { c, _ := r.Board.At(x, y); return c }
	tests := []struct {
		line string
		want submarine.Action
		err  string
	}{
		{"a 2 3", submarine.AttackAt(at(2, 3)), ""},
		{"attack [2,3]", submarine.AttackAt(at(2, 3)), ""},
		{"attack C4", submarine.AttackAt(at(2, 3)), ""},
		{"a c4", submarine.AttackAt(at(2, 3)), ""},
		{"m w B3", submarine.MoveTo(0, at(1, 2)), ""},
		{"  A 0,4 ", submarine.AttackAt(at(0, 4)), ""},
		{"m w 1 2", submarine.MoveTo(0, at(1, 2)), ""},
		{"move s [4,4]", submarine.MoveTo(2, at(4, 4)), ""},
		{"move s E5", submarine.MoveTo(2, at(4, 4)), ""},
		{"a 5 0", submarine.Action{}, "[5,0] (x y from 0) is off the 5x5 board"},
		{"a F1", submarine.Action{}, `"F1" is off the 5x5 board (columns A to E, rows 1 to 5)`},
		{"a 1", submarine.Action{}, "a cell is a name like C4 or two numbers x y"},
		{"a C4 D4", submarine.Action{}, `attack takes one CELL, e.g. "a C4"`},
		{"a x y", submarine.Action{}, `"x": want a column letter and a row number`},
		{"a 1 y", submarine.Action{}, `"y" is not a number`},
		{"m q 1 1", submarine.Action{}, "move takes SHIP CELL"},
		{"fire 1 1", submarine.Action{}, `unknown command "fire"`},
		{"", submarine.Action{}, "empty line"},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			a, err := h.Parse(tt.line)
			if tt.err != "" {
				require.ErrorContains(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, a)
		})
	}
}

// TestTyposAreNeverSent: a bad placement, commands that do not parse and
// illegal actions are refused and asked again; the first legal action is
// the one played.
func TestTyposAreNeverSent(t *testing.T) {
	r := submarine.DefaultRules()
	var out strings.Builder
	h := seat(r, "0,0 0,0 1,1\n0 0 1 1\n0,0 2,2 4,4\nhelp\nb\nshoot\na 4 0\nm w 1 1\nm w 0 2\nm w 0 3\na 1 1\n", &out)
	p := h.Place()
	require.Len(t, p, 3)
	require.Equal(t, "A1 C3 E5", r.CellName(p[0])+" "+r.CellName(p[1])+" "+r.CellName(p[2]))
	var v submarine.View
	g, err := submarine.NewGame(r, p, players.RandomPlacement(r, rand.New(rand.NewPCG(2, 2))), 0)
	require.NoError(t, err)
	g.ViewInto(0, &v)
	h.Observe(submarine.Event{Kind: submarine.Invalid}, &v)

	a := h.Act()
	require.Equal(t, submarine.MoveTo(0, 10), a, "m w 0 2: the first legal command")
	text := out.String()
	for _, want := range []string{
		"not a placement: want 3 cells (like A1, or x y), got 2",
		"refused: ", // two ships on [0,0]
		human.Help,
		`not sent: unknown command "shoot"`,
		"not sent: submarine: illegal action: attack on E1", // out of reach
		"not sent: submarine: illegal action: move of \"w\" from A1 to B2 is not along a row or column",
		"your fleet",
	} {
		require.Contains(t, text, want)
	}
	require.False(t, h.EOF())
}

// TestEndOfInputResigns: without input the seat places nothing and plays
// the invalid action (a forfeit), as a closed connection would.
func TestEndOfInputResigns(t *testing.T) {
	r := submarine.DefaultRules()
	var out strings.Builder
	h := seat(r, "r\n", &out)
	require.NoError(t, r.ValidatePlacement(h.Place()), "r: a random placement")
	a := h.Act()
	require.Equal(t, submarine.Invalid, a.Kind)
	require.True(t, h.EOF())
	require.Contains(t, out.String(), "end of input: resigning")
	require.Equal(t, submarine.Invalid, h.Act().Kind, "and stays resigned")
}

// script is input that plays legally whatever happens: each turn it tries
// every cell of the board as an attack, from a rotating start, and the first
// cell within reach is sent.
func script(r *submarine.Rules, turns int) string {
	var sb strings.Builder
	sb.WriteString("r\n")
	n := r.Board.Size()
	for k := range turns {
		for i := range n {
			c := (k*7 + i) % n
			fmt.Fprintf(&sb, "a %d %d\n", c%r.Board.Width(), c/r.Board.Width())
		}
	}
	return sb.String()
}

// TestPlayAgainstAI plays whole games against built-in AIs in-process with
// a scripted person: they end by the rules, the person never forfeits, the
// AI's reasons are shown and its fleet revealed only at the end.
func TestPlayAgainstAI(t *testing.T) {
	rocky := &submarine.Rules{Board: grid.MustBoard(6, 5, []grid.Cell{0, 5, 15, 24, 29}), Fleet: submarine.DefaultFleet(), DrawLimit: 400}
	short := submarine.DefaultRules()
	short.DrawLimit = 400
	for _, tt := range []struct {
		ai    string
		rules *submarine.Rules
	}{{"random", short}, {"stateplayer2", short}, {"hirota", rocky}} {
		t.Run(tt.ai, func(t *testing.T) {
			f, err := players.New(tt.ai, tt.rules, nil)
			require.NoError(t, err)
			var out strings.Builder
			h := seat(tt.rules, script(tt.rules, 300), &out)
			outcome, winner, err := human.PlayAgainstWith(tt.rules, h, f(rand.New(rand.NewPCG(5, 5))), 0, human.Options{AI: tt.ai})
			require.NoError(t, err)
			text := out.String()
			require.NotEqual(t, game.Running, outcome)
			require.False(t, h.EOF(), "the script lasts the game")
			require.NotContains(t, text, "forfeit")
			require.Contains(t, text, "the enemy fleet: ")
			switch {
			case outcome == game.Drawn:
				require.Contains(t, text, "draw after 400 actions")
			case winner == 0:
				require.Contains(t, text, "you win after ")
			default:
				require.Contains(t, text, "you lose after ")
			}
			require.NotContains(t, text, "  why: ", "no reasons during play")
			if tt.ai != "random" {
				require.Contains(t, text, "why "+tt.ai+" chose each of its actions", "the AI's reasons after the game")
			}
		})
	}
}

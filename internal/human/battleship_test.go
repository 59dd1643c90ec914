package human_test

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/internal/human"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
)

func bsSeat(input string, out *strings.Builder) *human.BattleshipSeat {
	return human.NewBattleship(battleship.DefaultRules(), bufio.NewReader(strings.NewReader(input)), out, rand.New(rand.NewPCG(1, 1)))
}

// everyCell types every cell of the 10x10 board, row by row.
func everyCell() string {
	var sb strings.Builder
	for row := 1; row <= 10; row++ {
		for _, col := range "ABCDEFGHIJ" {
			fmt.Fprintf(&sb, "%c%d\n", col, row)
		}
	}
	return sb.String()
}

// TestBattleshipSeatPlacement: typed ships in any order and direction, a
// style, "r"; bad lines are refused with the reason and asked again.
func TestBattleshipSeatPlacement(t *testing.T) {
	r := battleship.DefaultRules()
	var out strings.Builder
	h := bsSeat("A1-D2\nA1-D1 F1-H1 J1-J3 A3-B3 D3-E3 G3-H3 A5 C5 E5 B1\nD1-A1, H1-F1 J3-J1 A3-B3 D3-E3 G3-H3 a5 c5 e5 g5\n", &out)
	p := h.Place()
	require.NoError(t, r.ValidatePlacement(p))
	require.Contains(t, out.String(), `not a placement: not a cell: "A1-D2": a ship's ends share a row or a column`)
	require.Contains(t, out.String(), "refused: ")
	require.Contains(t, out.String(), "your fleet: A1-D1 F1-H1 J1-J3 A3-B3 D3-E3 G3-H3 A5 C5 E5 G5")

	for _, style := range []string{"r", "edge", "HUMAN"} {
		out.Reset()
		p := bsSeat(style+"\n", &out).Place()
		require.NoError(t, r.ValidatePlacement(p), style)
	}
	out.Reset()
	p = bsSeat("", &out).Place()
	require.NoError(t, r.ValidatePlacement(p), "the end of the input places at random")
	require.Contains(t, out.String(), "end of input: a random placement")
}

// TestBattleshipSeatShots: typos, cells off the board and cells shot
// before are refused and asked again, never returned; "b" and "help" only
// print. The first good cell is the shot.
func TestBattleshipSeatShots(t *testing.T) {
	r := battleship.DefaultRules()
	var out strings.Builder
	h := bsSeat("r\nE5\nE5\nK1\nfire\nb\nhelp\n\nг6\n", &out)
	require.NotNil(t, h.Place())
	at := h.Shoot()
	e5, _ := r.Cell(4, 4)
	require.Equal(t, e5, at)
	h.Observe(battleship.Event{Mine: true, Result: battleship.Result{At: e5, Outcome: battleship.Miss}})
	at = h.Shoot()
	d6, _ := r.Cell(5, 3)
	require.Equal(t, d6, at, "Cyrillic г is column D")
	s := out.String()
	require.Contains(t, s, "you shoot E5: miss")
	require.Contains(t, s, "you shot E5 before (a miss): choose another cell")
	require.Contains(t, s, `"K1" is off the 10x10 board`)
	require.Contains(t, s, `not a shot: not a cell: "fire"`)
	require.Contains(t, s, human.BattleshipHelp)
	require.Equal(t, 3, strings.Count(s, "the enemy's waters"), "the boards before each of the two shots and on b")
	require.False(t, h.EOF())
}

// TestBattleshipSeatMarksAndPasses: a kill marks the sunk ship and its
// ring on the enemy board (the ring may still be typed, the ship not);
// at the end of the input the seat passes by repeating a cell it shot.
func TestBattleshipSeatMarksAndPasses(t *testing.T) {
	r := battleship.DefaultRules()
	var out strings.Builder
	h := bsSeat("r\nA1\n", &out)
	h.Place()
	a1, _ := r.Cell(0, 0)
	require.Equal(t, a1, h.Shoot())
	h.Observe(battleship.Event{Mine: true, Again: true, Result: battleship.Result{At: a1, Outcome: battleship.Kill, Sunk: battleship.Ship{a1}}})
	require.Contains(t, out.String(), "you shoot A1: kill, the enemy's 1-cell ship A1 sinks; shoots again")
	require.Equal(t, a1, h.Shoot(), "input over: pass on a cell shot before")
	require.True(t, h.EOF())
	require.Contains(t, out.String(), "you pass every turn from now on")
	require.Equal(t, a1, h.Shoot())
	require.Contains(t, out.String(), " 1 [#] ,", "the sunk ship and its ring")
}

// TestPlayBattleshipAgainst: a scripted person who types every cell in
// order plays a whole game in-process against gridbot: no forfeit, the
// AI's fleet shown, the result said, every AI shot explained after the end.
func TestPlayBattleshipAgainst(t *testing.T) {
	r := battleship.DefaultRules()
	var out strings.Builder
	h := bsSeat("r\n"+everyCell(), &out)
	ai, err := bsplayers.New("gridbot", r, nil)
	require.NoError(t, err)
	res := human.PlayBattleshipAgainst(r, h, ai(rand.New(rand.NewPCG(2, 2))), 0)
	require.NoError(t, res.Err)
	require.Equal(t, game.Won, res.Status)
	s := out.String()
	during, after, ok := strings.Cut(s, human.EndHeader+"\n")
	require.True(t, ok, "the end is marked")
	require.NotContains(t, during, "why", "no reasons during play")
	require.Contains(t, after, "why the AI chose each of its actions")
	require.Regexp(t, `\n +\d+ shot [A-J]\d+: state `, after, "one reason per shot")
	require.Contains(t, after, "the enemy fleet: ")
	require.Regexp(t, `\nyou (win|lose): .* shots .*\n`, after)
	require.NotContains(t, s, "choose another cell", "every typed cell is new")
}

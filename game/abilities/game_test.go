package abilities_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// The test board is 6x6, cell = row*6 + col, fleet 4,3,2,1,1. Both seats
// place the same fleet:
//
//	row 0: X X X X . .    4-deck 0 1 2 3
//	row 1: . . . . . .
//	row 2: . X . . . X    1-deck 13, 3-deck 17 23 29
//	row 3: . . . X . X    1-deck 21
//	row 4: . . . . . X
//	row 5: X X . . . .    2-deck 30 31
func layout() battleship.Placement {
	return battleship.Placement{{0, 1, 2, 3}, {17, 23, 29}, {30, 31}, {13}, {21}}
}

func newRules(t testing.TB, s0, s1 abilities.Side, opt abilities.Options) *abilities.Rules {
	t.Helper()
	base, err := battleship.NewRules(grid.MustBoard(6, 6, nil), []int{4, 3, 2, 1, 1})
	require.NoError(t, err)
	r, err := abilities.NewRules(base, s0, s1, opt)
	require.NoError(t, err)
	return r
}

func newGame(t testing.TB, s0, s1 abilities.Side, opt abilities.Options) *abilities.Game {
	t.Helper()
	g, err := abilities.NewGame(newRules(t, s0, s1, opt), layout(), layout(), 0)
	require.NoError(t, err)
	return g
}

func shoot(c grid.Cell) abilities.Action { return abilities.Action{Kind: abilities.Shoot, At: c} }
func special(c grid.Cell) abilities.Action {
	return abilities.Action{Kind: abilities.Shoot, At: c, Special: true}
}
func move(from, to grid.Cell) abilities.Action {
	return abilities.Action{Kind: abilities.Move, At: from, To: to}
}
func salvo(a, b grid.Cell) abilities.Action {
	return abilities.Action{Kind: abilities.Salvo, At: a, To: b}
}
func centre(c grid.Cell) abilities.Action {
	return abilities.Action{Kind: abilities.Salvo, At: c, To: c}
}
func reveal(cells ...grid.Cell) abilities.Action {
	return abilities.Action{Kind: abilities.Reveal, Cells: cells}
}
func defend(use bool) abilities.Action { return abilities.Action{Kind: abilities.Defend, Use: use} }

// play applies actions, requiring each to be legal, and returns the steps.
func play(t *testing.T, g *abilities.Game, actions ...abilities.Action) []abilities.Step {
	t.Helper()
	var out []abilities.Step
	for i, a := range actions {
		st, err := g.Apply(a)
		require.NoError(t, err, "action %d %s", i, a)
		out = append(out, st)
	}
	return out
}

func outcomes(rs []abilities.CellResult) []battleship.Outcome {
	var out []battleship.Outcome
	for _, r := range rs {
		out = append(out, r.Outcome)
	}
	return out
}

// TestWorkedExamples plays the examples of docs/abilities.md, one per
// ability and per rules option.
func TestWorkedExamples(t *testing.T) {
	const ai, hu = abilities.AI, abilities.Humans
	for _, tt := range []struct {
		name   string
		s0, s1 abilities.Side
		opt    abilities.Options
		run    func(t *testing.T, g *abilities.Game)
	}{
		{"move: hidden, told that one moved, the turn goes on", ai, hu, abilities.Options{}, func(t *testing.T, g *abilities.Game) {
			st := play(t, g, move(13, 12))[0]
			require.Equal(t, grid.Cell(12), g.Ships(0)[3][0])
			require.Equal(t, abilities.Event{Seat: 0, Mine: true, Kind: abilities.Move, Moved: true, From: 13, To: 12, Scan: -1, Next: 0, Winner: -1}, st.Views[0])
			require.True(t, st.Views[1].Moved)
			require.Equal(t, grid.Cell(-1), st.Views[1].From)
			require.Equal(t, grid.Cell(-1), st.Views[1].To)
			require.Equal(t, 0, g.ToAct())
			_, err := g.Apply(move(21, 20))
			require.ErrorIs(t, err, abilities.ErrIllegal, "one move per turn")
		}},
		{"move: HideMoves tells the enemy nothing", ai, hu, abilities.Options{HideMoves: true}, func(t *testing.T, g *abilities.Game) {
			st := play(t, g, move(13, 12))[0]
			require.True(t, st.Views[1].Silent)
			require.False(t, st.Views[1].Moved)
		}},
		{"move: never onto a shot cell", ai, hu, abilities.Options{}, func(t *testing.T, g *abilities.Game) {
			play(t, g, shoot(35), shoot(12))
			require.Equal(t, 0, g.Turn())
			_, err := g.Apply(move(13, 12))
			require.ErrorIs(t, err, abilities.ErrIllegal)
			require.ErrorContains(t, err, "has been shot")
		}},
		{"move: never next to another ship", ai, hu, abilities.Options{}, func(t *testing.T, g *abilities.Game) {
			_, err := g.Apply(move(13, 14))
			require.ErrorContains(t, err, "touches another ship")
			_, err = g.Apply(move(13, 18))
			require.ErrorIs(t, err, abilities.ErrIllegal, "a diagonal is not a move")
		}},
		{"move: MoveMayTouch lets it end next to a ship", ai, hu, abilities.Options{MoveMayTouch: true}, func(t *testing.T, g *abilities.Game) {
			play(t, g, move(13, 14))
			require.Equal(t, grid.Cell(14), g.Ships(0)[3][0])
		}},
		{"AI salvo: two cells in a row, the turn ends even on hits", ai, ai, abilities.Options{}, func(t *testing.T, g *abilities.Game) {
			st := play(t, g, salvo(23, 29))[0]
			require.Equal(t, []battleship.Outcome{battleship.Hit, battleship.Hit}, outcomes(st.Views[0].Cells))
			require.Equal(t, 1, g.Turn())
			require.True(t, st.Views[0].TurnEnd)
			// on the AI's 4-deck the first hit asks for the false miss
			st = play(t, g, salvo(0, 1))[0]
			require.Equal(t, abilities.AskFalseMiss, st.Views[0].Ask.Ask)
			st = play(t, g, defend(false))[0]
			require.Equal(t, []battleship.Outcome{battleship.Hit, battleship.Hit}, outcomes(st.Views[1].Cells))
			require.Equal(t, 0, g.Turn())
		}},
		{"Humans salvo: the defender names 3 unshot cells of the 3x3", ai, hu, abilities.Options{}, func(t *testing.T, g *abilities.Game) {
			play(t, g, shoot(35))
			st := play(t, g, centre(7))[0]
			q := st.Views[0].Ask
			require.NotNil(t, q)
			require.Equal(t, abilities.AskReveal, q.Ask)
			require.Equal(t, 0, q.Seat)
			require.Equal(t, 3, q.Count)
			require.Equal(t, grid.Of(0, 1, 2, 6, 7, 8, 12, 13, 14), q.Cells)
			_, err := g.Apply(reveal(6, 6, 8))
			require.ErrorContains(t, err, "named twice")
			_, err = g.Apply(reveal(6, 8))
			require.ErrorContains(t, err, "want 3")
			_, err = g.Apply(shoot(5))
			require.ErrorIs(t, err, abilities.ErrIllegal, "the attacker waits for the answer")
			st = play(t, g, reveal(6, 8, 12))[0]
			require.Equal(t, []battleship.Outcome{battleship.Miss, battleship.Miss, battleship.Miss}, outcomes(st.Views[1].Cells))
			require.Equal(t, 0, g.Turn())
			// 0's next salvo at 7 on 1 (Humans): only 6 unshot cells left there
			play(t, g, shoot(35))
			st = play(t, g, centre(7))[0]
			require.Equal(t, grid.Of(0, 1, 2, 7, 13, 14), st.Views[1].Ask.Cells)
		}},
		{"salvo: SalvoShootsAgain gives another turn on a new hit", ai, ai, abilities.Options{SalvoShootsAgain: true}, func(t *testing.T, g *abilities.Game) {
			play(t, g, salvo(29, 35))
			require.Equal(t, 0, g.Turn(), "a hit and a miss: again")
			_, err := g.Apply(salvo(22, 28))
			require.ErrorIs(t, err, abilities.ErrIllegal, "one salvo per turn")
			play(t, g, shoot(34))
			require.Equal(t, 1, g.Turn())
			play(t, g, salvo(4, 5))
			require.Equal(t, 0, g.Turn(), "no hit: the turn ends")
		}},
		{"AI 3-deck: the count of ships in the 5x5", ai, hu, abilities.Options{}, func(t *testing.T, g *abilities.Game) {
			st := play(t, g, special(14))[0]
			require.Equal(t, 3, st.Views[0].Scan) // 4-deck, 1-decks 13 and 21
			require.Equal(t, 3, st.Views[1].Scan)
			require.Equal(t, battleship.Miss, st.Views[0].Cells[0].Outcome)
		}},
		{"AI 3-deck: once per turn, sunk ships count unless ScanAfloatOnly", ai, hu, abilities.Options{}, func(t *testing.T, g *abilities.Game) {
			st := play(t, g, shoot(13), special(20))
			require.Equal(t, battleship.Kill, st[0].Views[0].Cells[0].Outcome)
			require.Equal(t, 3, st[1].Views[0].Scan) // 1-decks 13 (sunk) and 21, the 2-deck
		}},
		{"AI 3-deck: ScanAfloatOnly leaves the sunk out", ai, hu, abilities.Options{ScanAfloatOnly: true}, func(t *testing.T, g *abilities.Game) {
			st := play(t, g, shoot(13), special(20))
			require.Equal(t, 2, st[1].Views[0].Scan)
		}},
		{"3-deck ability once per turn", ai, hu, abilities.Options{}, func(t *testing.T, g *abilities.Game) {
			play(t, g, special(13))
			_, err := g.Apply(special(21))
			require.ErrorContains(t, err, "no 3-deck ability")
		}},
		{"Humans 3-deck: suppression for the enemy's next turn", ai, hu, abilities.Options{}, func(t *testing.T, g *abilities.Game) {
			play(t, g, shoot(35), special(20)) // 0 misses; 1 (Humans) misses between 0's 1-decks 13 and 21
			require.Equal(t, 0, g.Turn())
			require.True(t, g.Suppressed(0, 3))
			require.True(t, g.Suppressed(0, 4))
			require.False(t, g.CanUse(abilities.MoverLen))
			_, err := g.Apply(move(13, 12))
			require.ErrorContains(t, err, "no 1-deck may move")
			require.True(t, g.CanUse(abilities.SalvoLen), "the 2-deck was not in the 3x3")
			play(t, g, shoot(35), shoot(34)) // 1 misses; 0 misses
			require.True(t, g.CanUse(abilities.MoverLen), "only the next turn")
		}},
		{"AI 4-deck: the false miss, then the cell counts as a hit", hu, ai, abilities.Options{}, func(t *testing.T, g *abilities.Game) {
			st := play(t, g, shoot(1))[0]
			require.Equal(t, &abilities.Question{Ask: abilities.AskFalseMiss, Seat: 1, At: 1}, st.Views[1].Ask)
			require.Empty(t, st.Views[0].Cells)
			st = play(t, g, defend(true))[0]
			require.Equal(t, abilities.CellResult{At: 1}, st.Views[0].Cells[0], "the shooter hears miss")
			require.Equal(t, abilities.CellResult{At: 1, Outcome: battleship.Hit, FalseMiss: true}, st.Views[1].Cells[0])
			require.Equal(t, 1, g.Turn())
			require.True(t, g.FalseMissSpent(1))
			play(t, g, shoot(35))
			st = play(t, g, shoot(1))[0]
			require.Equal(t, abilities.CellResult{At: 1, Outcome: battleship.Hit}, st.Views[0].Cells[0], "not a repeat")
			require.Equal(t, 0, g.Turn())
			st = play(t, g, shoot(2))[0]
			require.Nil(t, st.Views[0].Ask, "once per game")
		}},
		{"AI 4-deck: declined at the first hit, it is lost", hu, ai, abilities.Options{}, func(t *testing.T, g *abilities.Game) {
			play(t, g, shoot(1), defend(false))
			require.Equal(t, 0, g.Turn())
			st := play(t, g, shoot(2))[0]
			require.Nil(t, st.Views[0].Ask)
			require.Equal(t, battleship.Hit, st.Views[0].Cells[0].Outcome)
		}},
		{"AI 4-deck: FalseMissAnyHit may spend it on the killing shot", hu, ai, abilities.Options{FalseMissAnyHit: true}, func(t *testing.T, g *abilities.Game) {
			play(t, g, shoot(0), defend(false), shoot(1), defend(false), shoot(2), defend(false), shoot(3))
			require.Equal(t, abilities.AskFalseMiss, g.Pending().Ask)
			st := play(t, g, defend(true))[0]
			require.Equal(t, battleship.Miss, st.Views[0].Cells[0].Outcome)
			require.True(t, g.Afloat(1, 0))
			play(t, g, shoot(35))
			st = play(t, g, shoot(3))[0]
			require.Equal(t, battleship.Kill, st.Views[0].Cells[0].Outcome)
		}},
		{"Humans 4-deck: air defence twice, no shot happens", ai, hu, abilities.Options{}, func(t *testing.T, g *abilities.Game) {
			st := play(t, g, shoot(7))[0]
			require.Equal(t, abilities.AskAirDefence, st.Views[1].Ask.Ask)
			st = play(t, g, defend(true))[0]
			require.Equal(t, abilities.CellResult{At: 7, AirDefence: true}, st.Views[0].Cells[0])
			require.False(t, g.Shot(1).Has(7))
			require.Equal(t, 1, g.Turn())
			require.Equal(t, 1, g.AirDefenceLeft(1))
			play(t, g, shoot(35), shoot(2), defend(true), shoot(34))
			require.Equal(t, 0, g.AirDefenceLeft(1))
			st = play(t, g, shoot(2))[0]
			require.Nil(t, st.Views[0].Ask, "twice per game")
			require.Equal(t, battleship.Hit, st.Views[0].Cells[0].Outcome)
		}},
		{"air defence on a salvo cell: that cell only; the 2-deck still ends the turn", ai, hu, abilities.Options{}, func(t *testing.T, g *abilities.Game) {
			st := play(t, g, salvo(9, 15), defend(true))
			require.Empty(t, st[0].Views[0].Cells)
			require.Equal(t, []abilities.CellResult{{At: 9, AirDefence: true}, {At: 15}}, st[1].Views[0].Cells)
			require.Equal(t, 1, g.Turn())
		}},
		{"the shooter is not told a defence was weighed: one event, after the answer", ai, hu, abilities.Options{}, func(t *testing.T, g *abilities.Game) {
			st := play(t, g, salvo(9, 15), defend(false))
			require.True(t, st[0].Views[0].Silent, "held back while seat 1 decides")
			require.Nil(t, st[0].Views[0].Ask)
			require.Equal(t, abilities.AskAirDefence, st[0].Views[1].Ask.Ask, "the defender is asked")
			require.Equal(t, abilities.Event{Seat: 0, Mine: true, Kind: abilities.Salvo, From: -1, To: -1, Scan: -1,
				Cells: []abilities.CellResult{{At: 9}, {At: 15}}, Next: 1, Winner: -1, TurnEnd: true}, st[1].Views[0],
				"the salvo as if no question had been asked")
			require.Equal(t, abilities.Defend, st[1].Views[1].Kind)
			// the same salvo on a seat far from the 4-deck: the same events
			g2 := newGame(t, ai, hu, abilities.Options{})
			st2 := play(t, g2, salvo(33, 34))
			require.Equal(t, []abilities.CellResult{{At: 33}, {At: 34}}, st2[0].Views[0].Cells)
			require.Equal(t, abilities.Salvo, st2[0].Views[0].Kind)
		}},
		{"the defender asked is told the shot is the 3-deck's; air defence stops its count", ai, hu, abilities.Options{}, func(t *testing.T, g *abilities.Game) {
			st := play(t, g, special(9), defend(true))
			require.True(t, st[0].Views[1].Special, "declared with the shot")
			require.Equal(t, abilities.AskAirDefence, st[0].Views[1].Ask.Ask)
			require.False(t, st[1].Views[0].Special, "no shot happened")
			require.Equal(t, -1, st[1].Views[0].Scan)
		}},
		{"SuppressPassive: a suppressed 4-deck cannot lie that turn", hu, ai, abilities.Options{SuppressPassive: true}, func(t *testing.T, g *abilities.Game) {
			st := play(t, g, special(1))[0]
			require.Nil(t, st.Views[1].Ask)
			require.Equal(t, battleship.Hit, st.Views[0].Cells[0].Outcome)
		}},
		{"a kill lists the ship; sinking the fleet wins", ai, ai, abilities.Options{}, func(t *testing.T, g *abilities.Game) {
			st := play(t, g, shoot(17), shoot(23), shoot(29))
			require.Equal(t, battleship.Kill, st[2].Views[0].Cells[0].Outcome)
			require.Equal(t, battleship.Ship{17, 23, 29}, st[2].Views[0].Cells[0].Sunk)
			play(t, g, shoot(13), shoot(21), shoot(30), shoot(31), shoot(0), defend(false), shoot(1), shoot(2))
			st = play(t, g, shoot(3))
			require.Equal(t, game.Won, st[0].Status)
			require.Equal(t, 0, g.Winner())
			_, err := g.Apply(shoot(4))
			require.ErrorIs(t, err, abilities.ErrOver)
		}},
		{"a repeat shot never shoots again", ai, ai, abilities.Options{}, func(t *testing.T, g *abilities.Game) {
			st := play(t, g, shoot(17), shoot(17))
			require.True(t, st[1].Views[0].Cells[0].Repeat)
			require.Equal(t, 1, g.Turn())
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.run(t, newGame(t, tt.s0, tt.s1, tt.opt))
		})
	}
}

func TestIllegalChangesNothing(t *testing.T) {
	g := newGame(t, abilities.AI, abilities.Humans, abilities.Options{})
	before := g.Clone()
	for _, a := range []abilities.Action{
		shoot(-1), shoot(36), move(0, 6), move(13, 13), salvo(0, 2), salvo(1, 0), reveal(1, 2, 3), defend(true),
		{Kind: abilities.Kind(9)},
	} {
		_, err := g.Apply(a)
		require.ErrorIs(t, err, abilities.ErrIllegal, a.String())
		require.Equal(t, before, g, a.String())
	}
}

func TestNewGameRefusesBadInput(t *testing.T) {
	r := newRules(t, abilities.AI, abilities.Humans, abilities.Options{})
	_, err := abilities.NewGame(r, layout(), battleship.Placement{{0, 1}}, 0)
	require.ErrorContains(t, err, "seat 1")
	_, err = abilities.NewGame(r, layout(), layout(), 2)
	require.Error(t, err)
	_, err = abilities.NewRules(r.Base, abilities.Side(7), abilities.AI, abilities.Options{})
	require.ErrorIs(t, err, abilities.ErrRules)
	_, err = abilities.ParseSide("robots")
	require.ErrorIs(t, err, abilities.ErrRules)
}

func TestNeighbours(t *testing.T) {
	// 4x3 with a rock at 5 (row 1, col 1).
	b := grid.MustBoard(4, 3, []grid.Cell{5})
	for _, tc := range []struct {
		name string
		at   grid.Cell
		want []grid.Cell
	}{
		{"corner", 0, []grid.Cell{1, 4}},
		{"edge above the rock", 1, []grid.Cell{2, 0}},
		{"inside", 6, []grid.Cell{2, 7, 10}},
		{"last corner", 11, []grid.Cell{7, 10}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, abilities.Neighbours(b, tc.at))
		})
	}
}

package battleship

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
)

func TestSeaFire(t *testing.T) {
	r := DefaultRules()
	sea, err := NewSea(r, classicLayout())
	require.NoError(t, err)
	steps := []struct {
		at     grid.Cell
		want   Outcome
		sunk   Ship
		repeat bool
		again  bool
	}{
		{at: 99, want: Miss},
		{at: 20, want: Hit, again: true},                           // [2,0] of the 3-ship [2,0]-[2,2]
		{at: 21, want: Hit, again: true},                           // [2,1]
		{at: 20, want: Hit, repeat: true},                          // repeated: no extra shot
		{at: 22, want: Kill, sunk: Ship{20, 21, 22}, again: true},  // sunk: its cells
		{at: 21, want: Kill, sunk: Ship{20, 21, 22}, repeat: true}, // a sunk ship's cell again
		{at: 5, want: Kill, sunk: Ship{5}, again: true},            // a 1-ship
		{at: 99, want: Miss, repeat: true},                         // water again
		{at: 59, want: Kill, sunk: Ship{59}, again: true},          // another 1-ship
		{at: 1, want: Hit, again: true},                            // the 4-ship
		{at: 11, want: Miss},                                       // below it
		{at: 41, want: Hit, again: true},                           // 2-ship [4,0]-[4,1]
		{at: 40, want: Kill, sunk: Ship{40, 41}, again: true},      // sunk
		{at: 9, want: Kill, sunk: Ship{9}, again: true},            // 1-ship
		{at: 7, want: Kill, sunk: Ship{7}, again: true},            // last 1-ship
		{at: 0, want: Hit, again: true},                            // 4-ship
		{at: 2, want: Hit, again: true},                            // 4-ship
		{at: 3, want: Kill, sunk: Ship{0, 1, 2, 3}, again: true},   // 4-ship sunk
		{at: 24, want: Hit, again: true},                           // 3-ship
		{at: 25, want: Hit, again: true},                           //
		{at: 26, want: Kill, sunk: Ship{24, 25, 26}, again: true},  //
		{at: 28, want: Hit, again: true},                           // 2-ship
		{at: 29, want: Kill, sunk: Ship{28, 29}, again: true},      //
		{at: 43, want: Hit, again: true},                           // last 2-ship
		{at: 44, want: Kill, sunk: Ship{43, 44}, again: true},      // the fleet is gone
	}
	for i, st := range steps {
		res, err := sea.Fire(st.at)
		require.NoError(t, err, "step %d", i)
		require.Equal(t, st.want, res.Outcome, "step %d at %s", i, r.CellName(st.at))
		require.Equal(t, st.sunk, res.Sunk, "step %d", i)
		require.Equal(t, st.repeat, res.Repeat, "step %d", i)
		require.Equal(t, st.again, res.Again(), "step %d", i)
	}
	require.Equal(t, 0, sea.Afloat())
	_, err = sea.Fire(100)
	require.ErrorIs(t, err, ErrIllegal)
	_, err = sea.Fire(-1)
	require.ErrorIs(t, err, ErrIllegal)
}

func TestGameTurnsAndWin(t *testing.T) {
	r := mustRules(t, grid.MustBoard(4, 4, nil), 2, 1)
	p0 := Placement{{0, 1}, {15}}  // [0,0]-[0,1] and [3,3]
	p1 := Placement{{12, 13}, {3}} // [3,0]-[3,1] and [0,3]
	g, err := NewGame(r, p0, p1, 1)
	require.NoError(t, err)
	require.Equal(t, 1, g.ToAct())

	st, err := g.Apply(5) // seat 1 misses
	require.NoError(t, err)
	require.Equal(t, Miss, st.Shooter.Outcome)
	require.True(t, st.Shooter.Mine)
	require.False(t, st.Defender.Mine)
	require.Equal(t, 0, st.Next)

	st, _ = g.Apply(12) // seat 0 hits: shoots again
	require.Equal(t, Hit, st.Defender.Outcome)
	require.True(t, st.Shooter.Again)
	require.Equal(t, 0, st.Next)

	st, _ = g.Apply(13) // kill: again
	require.Equal(t, Kill, st.Shooter.Outcome)
	require.Equal(t, Ship{12, 13}, st.Shooter.Sunk)
	require.Equal(t, Ship{12, 13}, st.Defender.Sunk)
	require.Equal(t, 0, st.Next)

	st, _ = g.Apply(12) // repeat: the turn passes
	require.True(t, st.Shooter.Repeat)
	require.False(t, st.Shooter.Again)
	require.Equal(t, 1, st.Next)

	st, _ = g.Apply(0) // seat 1 hits
	require.Equal(t, 1, st.Next)
	st, _ = g.Apply(10) // and misses
	require.Equal(t, 0, st.Next)

	st, _ = g.Apply(3) // seat 0 sinks the last ship
	require.Equal(t, game.Won, st.Status)
	require.Equal(t, 0, st.Winner)
	require.Equal(t, game.Won, g.Status())
	require.Equal(t, [2]int{4, 3}, [2]int{g.Shots(0), g.Shots(1)})

	_, err = g.Apply(1)
	require.Error(t, err, "the game is over")
}

func TestGameIllegalShotLoses(t *testing.T) {
	r := mustRules(t, grid.MustBoard(4, 4, []grid.Cell{6}), 1)
	g, err := NewGame(r, Placement{{0}}, Placement{{15}}, 0)
	require.NoError(t, err)
	st, err := g.Apply(6)
	require.ErrorIs(t, err, ErrIllegal)
	require.ErrorContains(t, err, "rock")
	require.True(t, st.Shooter.Illegal)
	require.Equal(t, game.Won, st.Status)
	require.Equal(t, 1, st.Winner)
}

func TestGameDrawLimitAndForfeit(t *testing.T) {
	r := mustRules(t, grid.MustBoard(4, 4, nil), 1)
	r.DrawLimit = 3
	g, err := NewGame(r, Placement{{0}}, Placement{{15}}, 0)
	require.NoError(t, err)
	for range 3 {
		g.Apply(5)
	}
	require.Equal(t, game.Drawn, g.Status())
	require.Equal(t, -1, g.Winner())

	g, err = NewGame(r, Placement{{0}}, Placement{{15}}, 0)
	require.NoError(t, err)
	g.Forfeit(0)
	require.Equal(t, game.Won, g.Status())
	require.Equal(t, 1, g.Winner())
}

func TestNewGameRejects(t *testing.T) {
	r := mustRules(t, grid.MustBoard(4, 4, nil), 1)
	_, err := NewGame(r, Placement{{0}}, Placement{{0, 1}}, 0)
	require.ErrorIs(t, err, ErrPlacement)
	require.ErrorContains(t, err, "seat 1")
	_, err = NewGame(r, Placement{{0}}, Placement{{3}}, 2)
	require.ErrorContains(t, err, "first seat")
}

func ExampleGame_Apply() {
	r, _ := NewRules(grid.MustBoard(4, 4, nil), []int{2, 1})
	g, _ := NewGame(r, Placement{{0, 1}, {15}}, Placement{{12, 13}, {3}}, 0)
	for _, c := range []grid.Cell{12, 13, 4} {
		st, _ := g.Apply(c)
		fmt.Printf("seat %d shoots %s: %s, sunk %v, next seat %d\n", st.Seat, r.CellName(c), st.Shooter.Outcome, st.Shooter.Sunk, st.Next)
	}
	// Output:
	// seat 0 shoots A4: hit, sunk [], next seat 0
	// seat 0 shoots B4: kill, sunk [12 13], next seat 0
	// seat 0 shoots A2: miss, sunk [], next seat 1
}

func FuzzGameApply(f *testing.F) {
	f.Add([]byte{12, 13, 4, 0, 1, 15, 3})
	f.Add([]byte{200, 1, 2})
	f.Add([]byte{5, 5, 5, 5, 5, 5})
	r := mustRules(f, grid.MustBoard(4, 4, []grid.Cell{10}), 2, 1)
	f.Fuzz(func(t *testing.T, shots []byte) {
		g, err := NewGame(r, Placement{{0, 1}, {15}}, Placement{{12, 13}, {3}}, int(len(shots)%2))
		require.NoError(t, err)
		for i, b := range shots {
			c := grid.Cell(int(b) - 20) // some off the board, some negative
			seat := g.ToAct()
			before := g.Status()
			st, err := g.Apply(c)
			if before != game.Running {
				require.Error(t, err, "shot %d after the end", i)
				continue
			}
			require.Equal(t, seat, st.Seat)
			if err != nil {
				require.ErrorIs(t, err, ErrIllegal)
				require.Equal(t, 1-seat, st.Winner)
				continue
			}
			require.Equal(t, st.Shooter.Result.Outcome, st.Defender.Result.Outcome)
			require.Equal(t, st.Shooter.Again, st.Defender.Again)
			if st.Status == game.Running {
				want := 1 - seat
				if st.Shooter.Again {
					want = seat
				}
				require.Equal(t, want, st.Next)
			}
			if st.Status == game.Won {
				require.Zero(t, g.Sea(1-st.Winner).Afloat())
			}
			require.LessOrEqual(t, g.Shots(0)+g.Shots(1), r.DrawLimit)
		}
	})
}

package arena_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/arena/arenatest"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
)

// smallBattleship is a 7x7 board with a small fleet: games are quick, even
// for density.
func smallBattleship(t *testing.T, p1, p2 string) *arenatest.BattleshipFamily {
	t.Helper()
	r, err := battleship.NewRules(grid.MustBoard(7, 7, nil), []int{3, 2, 2, 1, 1})
	require.NoError(t, err)
	f1, err := bsplayers.New(p1, r, nil)
	require.NoError(t, err)
	f2, err := bsplayers.New(p2, r, nil)
	require.NoError(t, err)
	return arenatest.Battleship(r, p1, f1, p2, f2)
}

func TestBattleshipMatch(t *testing.T) {
	n := games(t, 400)
	fam := smallBattleship(t, "gridbot", "bs-random")
	var sums []arena.Summary
	for _, workers := range []int{1, 3} {
		m := arena.Match{Family: fam, Games: n, Seed: 7, Workers: workers}
		sum, err := m.Run(context.Background(), nil)
		require.NoError(t, err)
		sum.Elapsed, sum.Workers = 0, 0
		sums = append(sums, sum)
	}
	sum := sums[0]
	require.Equal(t, sum, sums[1], "same seed, other worker count: same summary")
	require.Equal(t, "battleship", sum.Game)
	require.Equal(t, n, sum.Games)
	require.Zero(t, sum.P1Forfeits+sum.P2Forfeits)
	require.Zero(t, sum.Draws, "bots never repeat a shot, so no game reaches the draw limit")
	require.Equal(t, n, sum.P1Wins+sum.P2Wins)
	require.Equal(t, sum.Actions, sum.P1Shots+sum.P2Shots)
	// gridbot needs far fewer shots than random fire: it wins most games.
	require.Greater(t, sum.P1Wins, n*3/4)
	require.Less(t, sum.P1MeanShots(), sum.P2MeanShots()+10)
	// Every game needs at least the fleet's 9 cells from the winner.
	require.GreaterOrEqual(t, sum.P1MeanShots()+sum.P2MeanShots(), 9.0)
	require.InDelta(t, sum.Mean, sum.P1MeanShots()+sum.P2MeanShots(), 1e-9)

	other := arena.Match{Family: fam, Games: n, Seed: 8, Workers: 2}
	o, err := other.Run(context.Background(), nil)
	require.NoError(t, err)
	require.NotEqual(t, sum.Actions, o.Actions, "another seed, other games")
}

// script is a fake player made of function fields.
type script struct {
	place   func() battleship.Placement
	shoot   func() grid.Cell
	observe func(ev battleship.Event)
}

func (s *script) Place() battleship.Placement { return s.place() }
func (s *script) Shoot() grid.Cell            { return s.shoot() }
func (s *script) Observe(ev battleship.Event) {
	if s.observe != nil {
		s.observe(ev)
	}
}

// tinyRules: a 4x4 board with ships of 2 and 1 cells.
func tinyRules(t *testing.T) *battleship.Rules {
	r, err := battleship.NewRules(grid.MustBoard(4, 4, []grid.Cell{15}), []int{2, 1})
	require.NoError(t, err)
	return r
}

// tinyLayout: the 2-ship on (0,0)-(0,1), the 1-ship at (2,2).
var tinyLayout = battleship.Placement{{0, 1}, {10}}

// sweeper shoots every usable cell in index order.
func sweeper(r *battleship.Rules) bsplayers.Factory {
	return func(*rand.Rand) bsplayers.Player {
		next := grid.Cell(0)
		return &script{
			place: func() battleship.Placement { return tinyLayout },
			shoot: func() grid.Cell {
				for !r.Board.IsUsable(next) {
					next++
				}
				next++
				return next - 1
			},
		}
	}
}

func TestBattleshipForfeits(t *testing.T) {
	r := tinyRules(t)
	good := sweeper(r)
	mk := func(place func() battleship.Placement, shoot func() grid.Cell, observe func(battleship.Event)) bsplayers.Factory {
		return func(*rand.Rand) bsplayers.Player {
			return &script{place: place, shoot: shoot, observe: observe}
		}
	}
	layout := func() battleship.Placement { return tinyLayout }
	tests := []struct {
		name    string
		bad     bsplayers.Factory
		reason  string
		kind    string // the replay's forfeit kind
		started bool   // both fleets were placed
	}{
		{"invalid placement", mk(func() battleship.Placement { return battleship.Placement{{0, 1}, {2}} }, nil, nil),
			"touch", "placement", false},
		{"placement panics", mk(func() battleship.Placement { panic("no fleet") }, nil, nil), "panic: no fleet", "panic", false},
		{"factory panics", func(*rand.Rand) bsplayers.Player { panic("broken") }, "panic: broken", "panic", false},
		{"shot off the board", mk(layout, func() grid.Cell { return 99 }, nil), "off the board", "illegal", true},
		{"shot at a rock", mk(layout, func() grid.Cell { return 15 }, nil), "rock", "illegal", true},
		{"shoot panics", mk(layout, func() grid.Cell { panic("bang") }, nil), "panic: bang", "panic", true},
		{"observe panics", mk(layout, func() grid.Cell { return 5 }, func(battleship.Event) { panic("deaf") }),
			"panic: deaf", "panic", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for p1Seat := range 2 {
				// P1 misbehaves, P2 sweeps; P1 sits in seat p1Seat.
				fam := arenatest.Battleship(r, "bad", tc.bad, "good", good)
				var buf bytes.Buffer
				res, err := fam.NewTable(nil).Play(arena.Deal{Index: p1Seat, Seed: 3, P1Seat: p1Seat, Replay: &buf})
				require.NoError(t, err)
				require.True(t, res.Forfeit[p1Seat], "P1 forfeits")
				require.False(t, res.Forfeit[1-p1Seat])
				require.True(t, res.P2Won())
				require.Contains(t, res.Reason, tc.reason)
				lines := replayLines(t, &buf)
				if !tc.started {
					require.Zero(t, res.Actions)
					require.Len(t, lines, 4, "header, two placements, result")
				}
				last := lines[len(lines)-1]
				require.Equal(t, "result", last["type"])
				require.EqualValues(t, 1-p1Seat, last["winner"])
				f := last["forfeits"].([]any)
				require.Len(t, f, 1)
				require.Equal(t, tc.kind, f[0].(map[string]any)["kind"])
				if tc.started && p1Seat == 1 {
					require.Positive(t, res.Actions, "the sweeper in seat 0 shot first")
					require.Equal(t, "shot", lines[3]["type"])
				}
			}
		})
	}

	t.Run("both placements invalid: draw", func(t *testing.T) {
		bad := mk(func() battleship.Placement { return nil }, nil, nil)
		fam := arenatest.Battleship(r, "a", bad, "b", bad)
		res, err := fam.NewTable(nil).Play(arena.Deal{Seed: 1})
		require.NoError(t, err)
		require.True(t, res.Draw())
		require.Equal(t, [2]bool{true, true}, res.Forfeit)
	})

	t.Run("sweepers: the first shooter wins", func(t *testing.T) {
		fam := arenatest.Battleship(r, "a", good, "b", good)
		for p1Seat := range 2 {
			res, err := fam.NewTable(nil).Play(arena.Deal{Seed: 1, P1Seat: p1Seat})
			require.NoError(t, err)
			require.Equal(t, 0, res.Winner, "seat 0 shoots first and both fleets are identical")
			require.Equal(t, p1Seat == 0, res.P1Won())
			// Seat 0 fires 0, 1 (hit, kill: two extra shots) and 2 (miss);
			// seat 1 the same; then one miss each on 3..9 until seat 0 sinks
			// the last ship on 10.
			require.Equal(t, [2]int{11, 10}, res.Shots)
			require.Equal(t, 21, res.Actions)
			require.Equal(t, [2]bool{}, res.Forfeit)
		}
	})
}

func replayLines(t *testing.T, buf *bytes.Buffer) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(buf.Bytes()))
	for sc.Scan() {
		var m map[string]any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &m), sc.Text())
		out = append(out, m)
	}
	require.NoError(t, sc.Err())
	return out
}

func TestBattleshipReplay(t *testing.T) {
	fam := smallBattleship(t, "gridbot", "density")
	var first []byte
	for range 2 {
		var buf bytes.Buffer
		d := arena.Deal{Index: 5, Seed: arena.GameSeed(9, 5), MatchSeed: 9, P1Seat: 1, Replay: &buf, Explain: true}
		res, err := fam.NewTable(nil).Play(d)
		require.NoError(t, err)
		if first != nil {
			require.Equal(t, string(first), buf.String(), "same deal, byte-identical replay")
			continue
		}
		first = bytes.Clone(buf.Bytes())
		lines := replayLines(t, &buf)
		require.Len(t, lines, 1+2+res.Actions+1, "header, two placements, one line per shot, result")
		h := lines[0]
		require.Equal(t, "header", h["type"])
		require.Equal(t, "battleship", h["game"])
		var hs struct{ Seed uint64 }
		require.NoError(t, json.Unmarshal(bytes.SplitN(first, []byte("\n"), 2)[0], &hs))
		require.Equal(t, d.Seed, hs.Seed)
		require.Equal(t, map[string]any{"seed": 9.0, "index": 5.0}, h["match"])
		require.Equal(t, []any{3.0, 2.0, 2.0, 1.0, 1.0}, h["rules"].(map[string]any)["fleet"])
		ps := h["players"].([]any)
		require.Equal(t, map[string]any{"seat": 0.0, "name": "density", "role": "p2"}, ps[0], "P1 sits in seat 1")
		require.Equal(t, "placement", lines[1]["type"])
		require.Len(t, lines[1]["ships"], 5)
		shots := [2]int{}
		for i, l := range lines[3 : len(lines)-1] {
			require.Equal(t, "shot", l["type"])
			require.EqualValues(t, i+1, l["n"])
			shots[int(l["seat"].(float64))]++
			if i == 0 {
				require.EqualValues(t, 0, l["seat"], "seat 0 shoots first")
			}
			require.Contains(t, l, "decision", "both bots explain their shots")
			if l["outcome"] == "kill" {
				require.NotEmpty(t, l["sunk"])
			}
		}
		require.Equal(t, res.Shots, shots)
		last := lines[len(lines)-1]
		require.EqualValues(t, res.Winner, last["winner"])
		require.Equal(t, []any{float64(shots[0]), float64(shots[1])}, last["shots"])
	}
}

func TestBattleshipValidate(t *testing.T) {
	m := arena.Match{Family: &arenatest.BattleshipFamily{Name: battleship.Name}, Games: 1}
	err := m.Validate()
	require.ErrorIs(t, err, arena.ErrMatch)
	require.ErrorContains(t, err, "no rules")
	require.ErrorContains(t, err, "no factory")
}

func TestBattleshipConfig(t *testing.T) {
	got, err := loadConfig("../configs/battleship-match.yaml")
	require.NoError(t, err)
	want := arena.DefaultConfig()
	want.Game = "battleship"
	require.Equal(t, want, got, "configs/battleship-match.yaml holds the built-in defaults")
	r, err := got.Battleship.Build()
	require.NoError(t, err)
	def := battleship.DefaultRules()
	require.Equal(t, def.Fleet, r.Fleet)
	require.Equal(t, def.DrawLimit, r.DrawLimit)
	require.Equal(t, def.Board.Shape(), r.Board.Shape())

	tests := []struct {
		name, yaml string
		shape      []string
		fleet      []int
		draw       int
	}{
		{"small board, fleet sorted", "game: battleship\nbattleship: {width: 5, height: 4, fleet: [1, 3, 2]}\n",
			[]string{"#####", "#####", "#####", "#####"}, []int{3, 2, 1}, 80},
		{"rounded with a rock and a draw limit", "battleship: {width: 4, height: 3, shape: rounded, rocks: [[1, 1]], fleet: [2], draw_limit: 9}\n",
			[]string{".##.", "#.##", ".##."}, []int{2}, 9},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := loadConfig(writeConfig(t, tc.yaml))
			require.NoError(t, err)
			r, err := c.Battleship.Build()
			require.NoError(t, err)
			require.Equal(t, tc.shape, r.Board.Shape())
			require.Equal(t, tc.fleet, r.Fleet)
			require.Equal(t, tc.draw, r.DrawLimit)
		})
	}
	bad := []struct{ name, yaml, want string }{
		{"unknown key", "battleship: {ships: [1]}", `"battleship.ships"`},
		{"ship too long", "battleship: {width: 3, height: 3, fleet: [4]}", "length 4"},
		{"fleet too big", "battleship: {width: 2, height: 2, fleet: [2, 2, 2]}", "needs 6 cells"},
		{"empty fleet", "battleship: {fleet: []}", "0 ships"},
		{"negative draw limit", "battleship: {draw_limit: -1}", "draw limit -1"},
		{"rock off the board", "battleship: {rocks: [[10, 0]]}", "arena: battleship: rock [10,0] is off"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			_, err := loadConfig(writeConfig(t, tc.yaml))
			require.ErrorContains(t, err, tc.want)
		})
	}
}

// TestGameTimed: a timed family plays the very games of the untimed one
// (results and replays), adding one duration per decision of each side;
// a Learner is still found through the timing wrapper.
func TestGameTimed(t *testing.T) {
	fam := smallBattleship(t, "gridbot", "bs-random")
	var decisions [2]int
	timed := fam.Timed(func(time.Duration) { decisions[0]++ }, func(time.Duration) { decisions[1]++ })
	require.Equal(t, fam.Game(), timed.Game())
	plain, clocked := fam.NewTable(nil), timed.NewTable(nil)
	var shots [2]int
	for i := range 6 {
		var want, got bytes.Buffer
		d := arena.Deal{Index: i, Seed: uint64(i + 1), P1Seat: i % 2}
		d.Replay = &want
		w, err := plain.Play(d)
		require.NoError(t, err)
		d.Replay = &got
		g, err := clocked.Play(d)
		require.NoError(t, err)
		require.Equal(t, w, g)
		require.Equal(t, want.String(), got.String())
		shots[0] += g.Shots[g.P1Seat]
		shots[1] += g.Shots[1-g.P1Seat]
	}
	require.Equal(t, shots, decisions, "one duration per shot of P1, of P2")

	var j journal
	r := fam.Rules.(*battleship.Rules)
	learners := arenatest.Battleship(r, "l1", bsLearners(t, r, &j), "l2", bsLearners(t, r, &j)).Timed(func(time.Duration) {}, func(time.Duration) {})
	m := arena.Match{Family: learners, Games: 4, Series: 2, Seed: 3, Workers: 1}
	_, err := m.Run(context.Background(), nil)
	require.NoError(t, err)
	require.Len(t, j.made, 4, "one learner per side and series, kept through the wrapper")
	for _, ends := range j.made {
		require.Len(t, ends, 2, "each told of both games of its series")
	}
}

package arena_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/arena/arenatest"
	"github.com/kaisen-ai/kaisen/audit"
	"github.com/kaisen-ai/kaisen/endgame"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/submarine"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	"github.com/kaisen-ai/kaisen/internal/race"
	"github.com/kaisen-ai/kaisen/replay"
)

// adjudicatedRun plays n random-vs-random games of seed with adj
// (nil: none) and returns the summary and the replays, by game.
func adjudicatedRun(t *testing.T, n int, seed uint64, workers int, adj *replay.Adjudication) (arena.Summary, [][]byte) {
	t.Helper()
	dir := t.TempDir()
	m := arena.Match{Family: randomFamily(), Games: n, Seed: seed, Workers: workers, Replays: dir, Adjudicate: adj}
	sum, err := m.Run(context.Background(), nil)
	require.NoError(t, err)
	files := make([][]byte, n)
	for i := range files {
		files[i], err = os.ReadFile(filepath.Join(dir, arena.ReplayName(i)))
		require.NoError(t, err)
	}
	sum.Elapsed, sum.Workers = 0, 0
	return sum, files
}

func readReplay(t *testing.T, b []byte) *subrecord.Replay {
	t.Helper()
	rp, err := subrecord.Read(bytes.NewReader(b))
	require.NoError(t, err)
	return rp
}

// firstDraw is the first action of the whole game rp after which the
// draw adjudication after k quiet actions fires, computed from scratch:
// the audit's first position where both fleets are common knowledge, the
// quiet actions counted on the recorded steps, and a solver of its own
// valuing the position after every action; 0 when it never fires.
func firstDraw(t *testing.T, a *audit.Auditor, solver *endgame.Solver, rp *subrecord.Replay, k int) int {
	t.Helper()
	rules, err := rp.Rules()
	require.NoError(t, err)
	rep, err := a.Replay(rp)
	require.NoError(t, err)
	if rep.Known < 0 {
		return 0
	}
	g, err := submarine.NewGame(rules, rp.Placement(rules, 0), rp.Placement(rules, 1), 0)
	require.NoError(t, err)
	quiet := 0
	for i, st := range rp.Steps {
		act, err := st.Action.Decode(rules)
		require.NoError(t, err)
		_, err = g.Apply(act)
		require.NoError(t, err)
		if st.Action.Kind == "attack" && st.Actor.Hit != "" {
			quiet = 0
		} else {
			quiet++
		}
		if g.Status() != game.Running {
			return 0
		}
		if n := i + 1; n >= rep.Known && quiet >= k {
			pos, err := endgame.NewPosition(rules, g.Fleet(g.ToAct()), g.Fleet(1-g.ToAct()))
			require.NoError(t, err)
			v, err := solver.Solve(pos)
			require.NoError(t, err)
			if v.Outcome == endgame.Draw {
				return n
			}
		}
	}
	return 0
}

// TestAdjudicateDrawWorkedExampleFullSize: every game of a match adjudicated with
// draw=K ends exactly where a from-scratch computation on the same game
// played without adjudication says the conditions first hold, with the
// same actions up to there; the games where they never hold are played
// as without adjudication.
func TestAdjudicateDrawWorkedExampleFullSize(t *testing.T) {
	race.SkipFullSize(t)
	const n, k = 24, 20
	rules := submarine.DefaultRules()
	solver, err := endgame.New(rules, endgame.Options{Nodes: 1})
	require.NoError(t, err)
	a, err := audit.New(rules, audit.Options{Nodes: 1, ScanNodes: 1})
	require.NoError(t, err)
	plain, full := adjudicatedRun(t, n, 42, 2, nil)
	require.Zero(t, plain.AdjudicatedDraw+plain.AdjudicatedCap)
	require.Nil(t, plain.Adjudication)
	sum, adj := adjudicatedRun(t, n, 42, 2, &replay.Adjudication{Draw: k})
	fired := 0
	for i := range n {
		whole, cut := readReplay(t, full[i]), readReplay(t, adj[i])
		require.Nil(t, whole.Header.Adjudication)
		require.Equal(t, &replay.Adjudication{Draw: k}, cut.Header.Adjudication)
		want := firstDraw(t, a, solver, whole, k)
		if want == 0 {
			require.Equal(t, whole.Steps, cut.Steps, "game %d: never adjudicated", i)
			require.Equal(t, whole.Result, cut.Result, "game %d", i)
			continue
		}
		fired++
		require.Equal(t, whole.Steps[:want], cut.Steps, "game %d: the same actions up to action %d", i, want)
		require.Equal(t, subrecord.Result{Type: replay.TypeResult, Outcome: replay.OutcomeDraw, Winner: -1, Actions: want,
			Adjudicated: replay.AdjudicatedDraw}, cut.Result, "game %d", i)
		require.NoError(t, subrecord.Verify(cut), "game %d", i)
	}
	require.Equal(t, fired, sum.AdjudicatedDraw)
	require.Positive(t, fired, "some games are adjudicated")
	require.Less(t, fired, n, "some are not")
	require.Equal(t, &replay.Adjudication{Draw: k}, sum.Adjudication)
	require.Less(t, sum.Actions, plain.Actions)
}

// TestAdjudicateCap: --max-actions ends every game still running after N
// actions as a draw there; shorter games are played as without it.
func TestAdjudicateCap(t *testing.T) {
	const n, limit = 30, 200
	_, full := adjudicatedRun(t, n, 5, 2, nil)
	sum, adj := adjudicatedRun(t, n, 5, 2, &replay.Adjudication{MaxActions: limit})
	capped := 0
	for i := range n {
		whole, cut := readReplay(t, full[i]), readReplay(t, adj[i])
		require.NoError(t, subrecord.Verify(cut), "game %d", i)
		if len(whole.Steps) <= limit {
			require.Equal(t, whole.Steps, cut.Steps, "game %d", i)
			require.Equal(t, whole.Result, cut.Result, "game %d", i)
			continue
		}
		capped++
		require.Equal(t, whole.Steps[:limit], cut.Steps, "game %d", i)
		require.Equal(t, subrecord.Result{Type: replay.TypeResult, Outcome: replay.OutcomeDraw, Winner: -1, Actions: limit,
			Adjudicated: replay.AdjudicatedCap}, cut.Result, "game %d", i)
	}
	require.Positive(t, capped)
	require.Equal(t, capped, sum.AdjudicatedCap)
	require.Zero(t, sum.AdjudicatedDraw)
	require.Equal(t, int32(limit), sum.Lengths[len(sum.Lengths)-1], "no game is longer than the cap")
}

// TestAdjudicateDeterministic: an adjudicated match gives the same
// summary and byte-identical replays whatever the workers.
func TestAdjudicateDeterministic(t *testing.T) {
	n := games(t, 60)
	adj := &replay.Adjudication{Draw: 30, MaxActions: 100}
	s1, f1 := adjudicatedRun(t, n, 11, 1, adj)
	s4, f4 := adjudicatedRun(t, n, 11, 4, adj)
	require.Equal(t, s1, s4)
	require.Equal(t, f1, f4)
	require.Positive(t, s1.AdjudicatedDraw)
	require.Positive(t, s1.AdjudicatedCap)
}

// TestAdjudicatedReplayVerify: a replay verifies only when the adjudication
// its header records fires exactly where its result says.
func TestAdjudicatedReplayVerify(t *testing.T) {
	const k = 20
	_, files := adjudicatedRun(t, 24, 42, 2, &replay.Adjudication{Draw: k, MaxActions: 100})
	var drawn, capped []byte
	for _, f := range files {
		rp := readReplay(t, f)
		require.NoError(t, subrecord.Verify(rp))
		switch rp.Result.Adjudicated {
		case replay.AdjudicatedDraw:
			drawn = f
		case replay.AdjudicatedCap:
			capped = f
		}
	}
	require.NotNil(t, drawn)
	require.NotNil(t, capped)
	tests := []struct {
		name, file string
		edit       func(rp *subrecord.Replay)
		want       string
	}{
		{"no reason in the result", "drawn", func(rp *subrecord.Replay) { rp.Result.Adjudicated = "" }, `adjudicated "", the adjudication (draw=20, max-actions=100) says "solver draw"`},
		{"another reason", "drawn", func(rp *subrecord.Replay) { rp.Result.Adjudicated = replay.AdjudicatedCap }, `says "solver draw"`},
		{"no adjudication in the header", "drawn", func(rp *subrecord.Replay) { rp.Header.Adjudication = nil }, "the header records no adjudication"},
		{"a larger K", "drawn", func(rp *subrecord.Replay) { rp.Header.Adjudication = &replay.Adjudication{Draw: k + 1000} }, "never fired"},
		{"a smaller K", "drawn", func(rp *subrecord.Replay) { rp.Header.Adjudication = &replay.Adjudication{Draw: 1} }, "but the replay goes on"},
		{"cut short", "drawn", func(rp *subrecord.Replay) {
			rp.Steps = rp.Steps[:len(rp.Steps)-1]
			rp.Result.Actions--
		}, "never fired"},
		{"a larger cap", "capped", func(rp *subrecord.Replay) { rp.Header.Adjudication.MaxActions++ }, "never fired"},
		{"a winner", "capped", func(rp *subrecord.Replay) { rp.Result.Winner, rp.Result.Outcome = 0, replay.OutcomeWin }, "the engine says draw/winner -1"},
		{"a negative K", "capped", func(rp *subrecord.Replay) { rp.Header.Adjudication.Draw = -1 }, "invalid adjudication"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := drawn
			if tc.file == "capped" {
				f = capped
			}
			rp := readReplay(t, f)
			tc.edit(rp)
			err := subrecord.Verify(rp)
			require.Error(t, err)
			require.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestAdjudicateValidate(t *testing.T) {
	bs := &arenatest.BattleshipFamily{Name: "battleship"}
	tests := []struct {
		name string
		m    arena.Match
		want string
	}{
		{"negative draw", arena.Match{Family: randomFamily(), Games: 1, Adjudicate: &replay.Adjudication{Draw: -1}}, "invalid adjudication"},
		{"negative cap", arena.Match{Family: randomFamily(), Games: 1, Adjudicate: &replay.Adjudication{MaxActions: -5}}, "invalid adjudication"},
		{"draw on Battleship", arena.Match{Family: bs, Games: 1, Adjudicate: &replay.Adjudication{Draw: 5}}, "submarine game only"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.m.Validate()
			require.ErrorIs(t, err, arena.ErrMatch)
			require.True(t, strings.Contains(err.Error(), tc.want), err.Error())
		})
	}
}

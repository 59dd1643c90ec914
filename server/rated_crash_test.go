package server

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/pgtest"
	"github.com/kaisen-ai/kaisen/internal/race"
	"github.com/kaisen-ai/kaisen/ladder"
	"github.com/kaisen-ai/kaisen/protocol"
)

// TestSIGKILLRatedLadder kills `kaisen serve --ladder` (SIGKILL) while bots
// play rated games, restarts it on the same database, several times, and
// checks the ladder's promise: every game whose players were told the
// result is in the database exactly once (per bot and outcome, the games
// told are at most the games stored, and the stored ones not told are
// only those in flight at a kill), with its replay, and every rating
// equals a recomputation from the stored games.
func TestSIGKILLRatedLadder(t *testing.T) {
	checkLeaks(t)
	bin := buildKaisen(t, t.TempDir())
	kills, perRun := 3, 12
	if testing.Short() || race.Enabled {
		kills, perRun = 2, 8
	}
	t.Run("sqlite", func(t *testing.T) {
		sigkillLadder(t, bin, filepath.Join(t.TempDir(), "ladder.db"), kills, perRun)
	})
	t.Run("postgres", func(t *testing.T) { sigkillLadder(t, bin, pgtest.DSN(t), 2, 8) })
}

// sigkillLadder is TestSIGKILLRatedLadder on database db: kills runs of
// perRun stored games each.
func sigkillLadder(t *testing.T, bin, db string, kills, perRun int) {
	ctx := context.Background()
	dir := t.TempDir()
	rl, rd := filepath.Join(dir, "results.jsonl"), filepath.Join(dir, "replays")
	bots := []string{"b0", "b1", "b2", "b3", "b4", "b5"}
	st, tok := func() (*ladder.Store, map[string]string) {
		st, err := ladder.Open(ctx, db)
		require.NoError(t, err)
		tok := map[string]string{}
		for _, b := range bots {
			tok[b], err = st.Register(ctx, b)
			require.NoError(t, err)
		}
		return st, tok
	}()
	defer st.Close()
	stored := func() int {
		g, err := st.Export(ctx)
		require.NoError(t, err)
		return len(g)
	}

	rules := submarine.DefaultRules()
	var mu sync.Mutex
	told := map[string]map[protocol.End]int{} // what each bot was told, by end
	for _, b := range bots {
		told[b] = map[protocol.End]int{}
	}
	for run := range kills {
		cmd, addr := startKaisenServe(t, bin, "--ladder", "--db", db, "--listen", "127.0.0.1:0", "--result-log", rl, "--replay-dir", rd,
			"--seed", fmt.Sprint(run+1), "--log-level", "warn")
		before := stored()
		runCtx, stop := context.WithCancel(ctx)
		var wg sync.WaitGroup
		for i, b := range bots {
			wg.Go(func() {
				for seed := uint64(run<<40 | i<<32); runCtx.Err() == nil; seed++ {
					ends, err := playRandom(addr, protocol.Classic, rules, seed, "", authed(b, tok[b]))
					mu.Lock()
					for _, e := range ends {
						told[b][e]++
					}
					mu.Unlock()
					if err != nil {
						return // the server is gone (or a game was cut by the kill)
					}
				}
			})
		}
		deadline := time.Now().Add(60 * time.Second)
		for stored() < before+perRun {
			require.True(t, time.Now().Before(deadline), "run %d: only %d games stored after 60s", run+1, stored()-before)
			time.Sleep(20 * time.Millisecond)
		}
		require.NoError(t, cmd.Process.Kill()) // SIGKILL, mid-game for most bots
		_ = cmd.Wait()
		stop()
		wg.Wait()
	}

	games, err := st.Export(ctx)
	require.NoError(t, err)
	have := map[string]map[protocol.End]int{}
	ids := map[string]bool{}
	for _, b := range bots {
		have[b] = map[protocol.End]int{}
	}
	for i, r := range games {
		g := r.Game
		require.Equal(t, int64(i+1), r.Seq, "games numbered without a gap")
		require.False(t, ids[g.ID], "game %s stored twice", g.ID)
		ids[g.ID] = true
		_, err := os.Stat(filepath.Join(rd, g.ID+".jsonl"))
		require.NoError(t, err, "the replay of rated game %s", g.ID)
		assert.Equal(t, g.ID+".jsonl", g.Replay)
		for seat, b := range g.Bots {
			switch {
			case g.Winner == -1:
				have[b][protocol.EndDraw]++
			case g.Winner == seat:
				have[b][protocol.EndWin]++
			default:
				have[b][protocol.EndLose]++
			}
		}
	}
	toldGames := 0
	for _, b := range bots {
		n, m := 0, 0
		for _, e := range []protocol.End{protocol.EndWin, protocol.EndLose, protocol.EndDraw} {
			require.LessOrEqual(t, told[b][e], have[b][e], "%s was told %d %v, the ladder has %d", b, told[b][e], e, have[b][e])
			n += told[b][e]
			m += have[b][e]
		}
		// A bot plays one game at a time: at each kill at most one of its
		// games was stored and not told.
		require.LessOrEqual(t, m-n, kills, "%s: %d games stored, %d told", b, m, n)
		toldGames += n
	}
	t.Logf("%d kills: %d rated games stored, %d game ends told to bots", kills, len(games), toldGames)

	want, err := st.Recompute(ctx)
	require.NoError(t, err)
	table, err := st.Table(ctx)
	require.NoError(t, err)
	for _, b := range table {
		require.Equal(t, want[b.Name], b.Rating, "the rating of %s equals a recomputation", b.Name)
	}
}

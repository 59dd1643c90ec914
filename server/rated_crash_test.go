package server

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/submarine"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	"github.com/kaisen-ai/kaisen/internal/pgtest"
	"github.com/kaisen-ai/kaisen/internal/race"
	"github.com/kaisen-ai/kaisen/ladder"
	"github.com/kaisen-ai/kaisen/protocol"
)

// TestSIGKILLRatedLadder kills `kaisen serve --ladder` (SIGKILL) while bots
// play rated games, restarts it on the same database, several times, and
// checks the ladder's promise: every game whose players were told the
// result is in the database exactly once, with its replay, and every
// rating equals a recomputation from the stored games (sigkillLadder).
//
// The scale is small in CI; KAISEN_LADDER_KILL=KILLSxGAMES[xBOTS] runs it
// at any scale (scripts/ladder-kill.sh: 5 kills, each after 1000 more rated
// games, 40 bots).
func TestSIGKILLRatedLadder(t *testing.T) {
	checkLeaks(t)
	sc, scaled := killScaleFromEnv(t)
	pg := sc
	if !scaled {
		sc, pg = killScale{kills: 3, perRun: 12, bots: 6}, killScale{kills: 2, perRun: 8, bots: 6}
		if testing.Short() || race.Enabled {
			sc = pg
		}
	}
	bin := buildKaisen(t, t.TempDir())
	t.Run("sqlite", func(t *testing.T) {
		sigkillLadder(t, bin, filepath.Join(t.TempDir(), "ladder.db"), sc)
	})
	t.Run("postgres", func(t *testing.T) { sigkillLadder(t, bin, pgtest.DSN(t), pg) })
}

// killScale is the size of a kill run: kills restarts of the server, each
// killed after perRun more games are stored, with bots bots playing.
type killScale struct{ kills, perRun, bots int }

// killScaleFromEnv reads KAISEN_LADDER_KILL ("5x1000" or "5x1000x40").
func killScaleFromEnv(t *testing.T) (killScale, bool) {
	v := os.Getenv("KAISEN_LADDER_KILL")
	if v == "" {
		return killScale{}, false
	}
	sc := killScale{bots: 6}
	parts := strings.Split(v, "x")
	var err error
	if len(parts) < 2 || len(parts) > 3 {
		err = errors.New("want KILLSxGAMES or KILLSxGAMESxBOTS")
	} else {
		for i, p := range parts {
			n, perr := strconv.Atoi(p)
			if perr != nil || n < 1 || i == 2 && n < 2 {
				err = fmt.Errorf("%q is not a positive count (bots at least 2)", p)
				break
			}
			*[]*int{&sc.kills, &sc.perRun, &sc.bots}[i] = n
		}
	}
	require.NoError(t, err, "KAISEN_LADDER_KILL=%q", v)
	return sc, true
}

// sigkillLadder is TestSIGKILLRatedLadder on database db.
//
// Each bot plays one game at a time and notes, per server run, the end
// line of every game it was told. The stored games of a run are those
// whose id starts with that server's run id (unique per process). For
// every bot and run, the outcomes told, in order, must be exactly the
// outcomes of its stored games of that run in seq order, but for at most
// one more stored game at the end (the game in flight at the kill, stored
// and not yet told): a told game missing, stored twice, or stored in
// another order breaks the match. Then every stored game has its replay,
// which passes subrecord.Verify, the games are numbered without a
// gap, and the bots' ratings equal Recompute to the last bit.
func sigkillLadder(t *testing.T, bin, db string, sc killScale) {
	ctx := context.Background()
	dir := t.TempDir()
	rl, rd := filepath.Join(dir, "results.jsonl"), filepath.Join(dir, "replays")
	bots := make([]string, sc.bots)
	for i := range bots {
		bots[i] = fmt.Sprintf("b%d", i)
	}
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
	stored := func() int { // games stored so far: each counts for its two bots
		table, err := st.Table(ctx)
		require.NoError(t, err)
		n := 0
		for _, b := range table {
			n += b.Games
		}
		return n / 2
	}

	rules := submarine.DefaultRules()
	var mu sync.Mutex
	told := make([]map[string][]protocol.End, sc.kills) // per run, per bot: the end lines, in order
	start := time.Now()
	for run := range sc.kills {
		told[run] = map[string][]protocol.End{}
		cmd, addr := startKaisenServe(t, bin, "--ladder", "--db", db, "--listen", "127.0.0.1:0", "--result-log", rl, "--replay-dir", rd,
			"--seed", fmt.Sprint(run+1), "--log-level", "warn", "--max-connections-per-ip", fmt.Sprint(2*sc.bots+8))
		before := stored()
		runCtx, stop := context.WithCancel(ctx)
		var wg sync.WaitGroup
		for i, b := range bots {
			wg.Go(func() {
				for seed := uint64(run<<40 | i<<32); runCtx.Err() == nil; seed++ {
					ends, err := playRandom(addr, protocol.Classic, rules, seed, "", authed(b, tok[b]))
					mu.Lock()
					told[run][b] = append(told[run][b], ends...)
					mu.Unlock()
					if err != nil {
						return // the server is gone (or a game was cut by the kill)
					}
				}
			})
		}
		wait := max(60*time.Second, time.Duration(sc.perRun)*200*time.Millisecond)
		deadline := time.Now().Add(wait)
		for stored() < before+sc.perRun {
			require.True(t, time.Now().Before(deadline), "run %d: only %d games stored after %v", run+1, stored()-before, wait)
			time.Sleep(50 * time.Millisecond)
		}
		require.NoError(t, cmd.Process.Kill()) // SIGKILL, mid-game for most bots
		_ = cmd.Wait()
		stop()
		wg.Wait()
	}

	games, err := st.Export(ctx)
	require.NoError(t, err)
	var runs []string                              // run ids, in the order their first game was stored
	have := map[string]map[string][]protocol.End{} // per run id, per bot: the stored outcomes in seq order
	ids := map[string]bool{}
	for i, r := range games {
		g := r.Game
		require.Equal(t, int64(i+1), r.Seq, "games numbered without a gap")
		require.False(t, ids[g.ID], "game %s stored twice", g.ID)
		ids[g.ID] = true
		rp, err := subrecord.ReadFile(filepath.Join(rd, g.ID+".jsonl"))
		require.NoError(t, err, "the replay of rated game %s", g.ID)
		require.NoError(t, subrecord.Verify(rp), "the replay of rated game %s", g.ID)
		assert.Equal(t, g.ID+".jsonl", g.Replay)
		run := g.ID[:strings.LastIndexByte(g.ID, '-')]
		if have[run] == nil {
			runs = append(runs, run)
			have[run] = map[string][]protocol.End{}
		}
		for seat, b := range g.Bots {
			e := protocol.EndLose
			switch g.Winner {
			case -1:
				e = protocol.EndDraw
			case seat:
				e = protocol.EndWin
			}
			have[run][b] = append(have[run][b], e)
		}
	}
	require.Len(t, runs, sc.kills, "every server run stored games")
	toldGames, inFlight := 0, 0
	for k, run := range runs {
		for _, b := range bots {
			got, want := told[k][b], have[run][b]
			require.LessOrEqual(t, len(got), len(want), "run %d, %s: told %d games, %d stored", k+1, b, len(got), len(want))
			require.Equal(t, want[:len(got)], got, "run %d, %s: the games told are the games stored, in order", k+1, b)
			require.LessOrEqual(t, len(want)-len(got), 1, "run %d, %s: %d stored games not told (only the one in flight at the kill may be)", k+1, b, len(want)-len(got))
			toldGames += len(got)
			inFlight += len(want) - len(got)
		}
	}
	t.Logf("%d kills, %d bots: %d rated games stored, %d game ends told to bots, %d stored and not told (in flight at a kill); %v",
		sc.kills, sc.bots, len(games), toldGames, inFlight, time.Since(start).Round(time.Second))

	want, err := st.Recompute(ctx)
	require.NoError(t, err)
	table, err := st.Table(ctx)
	require.NoError(t, err)
	for _, b := range table {
		require.Equal(t, want[b.Name], b.Rating, "the rating of %s equals a recomputation", b.Name)
	}
}

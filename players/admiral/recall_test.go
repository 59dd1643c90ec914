package admiral

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/race"
	"github.com/kaisen-ai/kaisen/players"
)

// stalled is an admiral whose planner holds small pools, quiet for turns
// of ours.
func stalled(t *testing.T, turns int) *Admiral {
	t.Helper()
	a := NewAdmiral(submarine.DefaultRules(), DefaultAdmiralConfig(), rand.New(rand.NewPCG(1, 2)))
	a.actions, a.lastHit = 2*turns, 0
	a.plan.pe.tup, a.plan.pe.full = []uint64{7, 9}, 2
	a.plan.po.tup, a.plan.po.full = []uint64{11}, 1
	return a
}

func TestRecallSamplesThenDraws(t *testing.T) {
	a := stalled(t, 200)
	p := &a.plan
	acts := []submarine.Action{submarine.AttackAt(3), submarine.AttackAt(4), submarine.MoveTo(0, 5), submarine.AttackAt(3)}
	for i, act := range acts {
		_, _, ok := p.look()
		require.False(t, ok, "visit %d: the position's samples are not full yet", i)
		p.remember(act)
	}
	drawn := map[submarine.Action]int{}
	for range 200 {
		act, _, ok := p.look()
		require.True(t, ok)
		drawn[act]++
	}
	require.Len(t, drawn, 3, "every sample is drawn")
	require.Greater(t, drawn[submarine.AttackAt(3)], drawn[submarine.AttackAt(4)], "a sample taken twice is drawn about twice as often")
	require.Equal(t, 200, p.rc.hits)
}

func TestRecallKey(t *testing.T) {
	fill := func(a *Admiral) {
		for range a.cfg.Endgame.RecallSamples {
			_, _, ok := a.plan.look()
			require.False(t, ok)
			a.plan.remember(submarine.AttackAt(3))
		}
	}
	tests := []struct {
		name   string
		change func(a *Admiral)
		hit    bool
	}{
		{name: "same position", change: func(*Admiral) {}, hit: true},
		{name: "one turn later, same stall block", change: func(a *Admiral) { a.actions += 2 }, hit: true},
		{name: "next stall block", change: func(a *Admiral) { a.actions += 2 * a.cfg.Endgame.Stall }, hit: false},
		{name: "our ship moved", change: func(a *Admiral) { a.me.Pos[0]++ }, hit: false},
		{name: "our ship hit", change: func(a *Admiral) { a.me.HP[1]-- }, hit: false},
		{name: "enemy ship hit", change: func(a *Admiral) { a.enemyHP[2]-- }, hit: false},
		{name: "another formation history", change: func(a *Admiral) { a.history = append(a.history, 5) }, hit: false},
		{name: "enemy pool", change: func(a *Admiral) { a.plan.pe.tup = []uint64{7, 10} }, hit: false},
		{name: "our pool", change: func(a *Admiral) { a.plan.po.tup = []uint64{11, 12}; a.plan.po.full = 2 }, hit: false},
		{name: "opponent kind", change: func(a *Admiral) { a.plan.kind = kindCamper }, hit: false},
		{name: "a hit forgets the stall", change: func(a *Admiral) { a.lastHit = 2; a.actions += 2 }, hit: false},
		{name: "too early in the stall", change: func(a *Admiral) { a.actions = 2*a.cfg.Endgame.Recall - 2 }, hit: false},
		{name: "pools too large", change: func(a *Admiral) {
			a.plan.po.tup = make([]uint64, recallPool)
			fill(a)
			a.plan.po.tup = make([]uint64, recallPool)
		}, hit: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := stalled(t, 200)
			fill(a)
			tt.change(a)
			_, _, ok := a.plan.look()
			require.Equal(t, tt.hit, ok)
		})
	}
}

func TestRecallBoldBlock(t *testing.T) {
	tests := []struct {
		turns, stall int
		boldness     float64
		want         int
	}{
		{turns: 0, stall: 10, boldness: 0.854, want: 0},
		{turns: 109, stall: 10, boldness: 0.854, want: 10},
		// 0.854^43 = 0.00113, 0.854^44 = 0.00097 < recallBold: block 44 and
		// every later one are one.
		{turns: 439, stall: 10, boldness: 0.854, want: 43},
		{turns: 440, stall: 10, boldness: 0.854, want: 44},
		{turns: 5000, stall: 10, boldness: 0.854, want: 44},
		{turns: 5000, stall: 10, boldness: 1, want: 0},
		{turns: 5000, stall: 100, boldness: 0.5, want: 10},
	}
	for _, tt := range tests {
		a := stalled(t, tt.turns)
		a.cfg.Endgame.Stall, a.cfg.Endgame.Boldness = tt.stall, tt.boldness
		require.Equal(t, tt.want, a.plan.boldBlock(), "%+v", tt)
	}
}

// TestRecallFullSize plays game 4 of a 200-game match against hirota (seed
// 612, docs/admiral.md, "Recalling stalled positions"), drawn at the
// 10,000-action limit, with and without recall: the same game action for
// action, most of admiral's decisions recalled instead of searched.
func TestRecallFullSize(t *testing.T) {
	race.SkipFullSize(t)
	r := submarine.DefaultRules()
	hirota := mustFactory(t, "hirota", r, "")
	seed := arena.GameSeed(612, 4) // even: admiral in seat 0
	play := func(recall int) (string, *Admiral) {
		cfg := DefaultAdmiralConfig()
		cfg.Endgame.Recall = recall
		// Searched from the first action in both: the opening book is
		// built for the default weights only, so it would open one of the
		// two games and not the other.
		cfg.Search.Opening = false
		sh := newAdmiralShared(r, cfg)
		var adm *Admiral
		f := func(rng *rand.Rand) players.Player {
			adm = newAdmiral(r, cfg, rng, sh)
			return adm
		}
		var rec bytes.Buffer
		res, err := arena.PlayGame(r, f, hirota, seed, &arena.GameOptions{Replay: &rec})
		require.NoError(t, err)
		require.Equal(t, [2]bool{}, res.Forfeit, res.Reason)
		require.Equal(t, 10000, res.Actions, "game 4 is drawn at the limit")
		return rec.String(), adm
	}
	off, _ := play(0)
	on, adm := play(DefaultAdmiralConfig().Endgame.Recall)
	require.Equal(t, off, on, "recall changes no action of game 4")
	t.Logf("%d of admiral's 5,000 decisions recalled", adm.plan.rc.hits)
	require.Greater(t, adm.plan.rc.hits, 4000, "most of admiral's 5,000 decisions are recalled")
}

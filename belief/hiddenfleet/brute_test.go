package hiddenfleet_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/belief/hiddenfleet"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/internal/race"
)

// The reference: every hidden history of the enemy, played by the rules
// engine itself. A world is a Game with one candidate enemy layout and the
// observer's real fleet; it replays the actions the observer saw, branches
// on every hidden choice of the enemy (each legal 1-deck move, or none
// where the observer cannot tell; each answer to a defence question) and
// is kept only while the observer's view of it equals the observer's view
// of the real game. Worlds with the same enemy layout and defence state are
// merged. The layouts of the surviving worlds must be exactly the
// tracker's consistent layouts.

// allPlacements lists every valid layout of the fleet, by brute force.
func allPlacements(r *battleship.Rules) []battleship.Placement {
	b := r.Board
	lens := slices.Clone(r.Fleet)
	sort.Sort(sort.Reverse(sort.IntSlice(lens)))
	var out []battleship.Placement
	var cur battleship.Placement
	var rec func(i int, minFirst grid.Cell)
	rec = func(i int, minFirst grid.Cell) {
		if i == len(lens) {
			p := make(battleship.Placement, len(cur))
			for j, s := range cur {
				p[j] = slices.Clone(s)
			}
			if r.ValidatePlacement(p) == nil {
				out = append(out, p)
			}
			return
		}
		for c := range b.Usable().All() {
			if i > 0 && lens[i] == lens[i-1] && c <= minFirst {
				continue
			}
			for _, d := range [][2]int{{1, 0}, {0, 1}} {
				if lens[i] == 1 && d[1] == 1 {
					continue
				}
				x, y := b.XY(c)
				var sh battleship.Ship
				for k := range lens[i] {
					n, ok := b.At(x+k*d[0], y+k*d[1])
					if !ok || !b.IsUsable(n) {
						sh = nil
						break
					}
					sh = append(sh, n)
				}
				if sh == nil || touches(b, cur, sh) {
					continue
				}
				cur = append(cur, sh)
				rec(i+1, c)
				cur = cur[:len(cur)-1]
			}
		}
	}
	rec(0, -1)
	return out
}

func touches(b *grid.Board, ships battleship.Placement, sh battleship.Ship) bool {
	for _, o := range ships {
		for _, a := range o {
			for _, c := range sh {
				if b.Chebyshev(a, c) <= 1 {
					return true
				}
			}
		}
	}
	return false
}

// layoutKey names a layout: its ships' sorted cells, sorted.
func layoutKey(p battleship.Placement) string {
	ss := make([]string, len(p))
	for i, s := range p {
		c := slices.Clone(s)
		slices.Sort(c)
		ss[i] = fmt.Sprint(c)
	}
	slices.Sort(ss)
	return strings.Join(ss, " ")
}

func trackerKey(l hiddenfleet.Layout, deadOnes []grid.Cell) string {
	p := slices.Clone(l.Big)
	for _, c := range l.Ones {
		p = append(p, battleship.Ship{c})
	}
	for _, c := range deadOnes {
		p = append(p, battleship.Ship{c})
	}
	return layoutKey(p)
}

type reference struct {
	obs, enemy int
	worlds     map[string]*abilities.Game
}

func newReference(t testing.TB, r *abilities.Rules, obs int, mine battleship.Placement, first int) *reference {
	ref := &reference{obs: obs, enemy: 1 - obs, worlds: map[string]*abilities.Game{}}
	for _, p := range allPlacements(r.Base) {
		ps := [2]battleship.Placement{}
		ps[obs], ps[1-obs] = mine, p
		g, err := abilities.NewGame(r, ps[0], ps[1], first)
		require.NoError(t, err)
		ref.worlds[ref.key(g)] = g
	}
	return ref
}

func (ref *reference) key(g *abilities.Game) string {
	return fmt.Sprintf("%s|%t|%d", layoutKey(g.Ships(ref.enemy)), g.FalseMissSpent(ref.enemy), g.AirDefenceLeft(ref.enemy))
}

// branch applies a to w and then every answer to the enemy's defence
// questions, returning each resulting world with the observer's views.
func (ref *reference) branch(w *abilities.Game, a abilities.Action, views []abilities.Event, out func(*abilities.Game, []abilities.Event)) {
	st, err := w.Apply(a)
	if err != nil {
		return // illegal in this world (a suppressed ship): not the real one
	}
	if v := st.Views[ref.obs]; !v.Silent {
		views = append(slices.Clip(views), v)
	}
	if q := w.Pending(); q != nil && q.Seat == ref.enemy && q.Ask != abilities.AskReveal {
		for _, use := range []bool{false, true} {
			ref.branch(w.Clone(), abilities.Action{Kind: abilities.Defend, Use: use}, views, out)
		}
		return
	}
	out(w, views)
}

// step replays one visible action (nil: a hidden move of the enemy, with
// none allowed when optional) and keeps the worlds whose views match want.
func (ref *reference) step(a *abilities.Action, optional bool, want []abilities.Event) {
	next := map[string]*abilities.Game{}
	keep := func(w *abilities.Game, views []abilities.Event) {
		if reflect.DeepEqual(views, want) || (len(views) == 0 && len(want) == 0) {
			next[ref.key(w)] = w
		}
	}
	for _, w := range ref.worlds {
		if a != nil {
			ref.branch(w.Clone(), *a, nil, keep)
			continue
		}
		if optional {
			keep(w, nil)
		}
		if !w.CanUse(abilities.MoverLen) {
			continue
		}
		for _, m := range w.Legal() {
			if m.Kind == abilities.Move {
				ref.branch(w.Clone(), m, nil, keep)
			}
		}
	}
	ref.worlds = next
}

func (ref *reference) layouts() []string {
	set := map[string]bool{}
	for _, w := range ref.worlds {
		set[layoutKey(w.Ships(ref.enemy))] = true
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// randomAction picks a legal action: abilities often, shots mostly at cells
// not fired at, sometimes a repeat (which tests a lie).
func randomAction(g *abilities.Game, rng *rand.Rand) abilities.Action {
	legal := g.Legal()
	if q := g.Pending(); q != nil {
		return legal[rng.IntN(len(legal))]
	}
	by := map[abilities.Kind][]abilities.Action{}
	var special, fresh, any []abilities.Action
	shot := g.Shot(1 - g.Turn())
	for _, a := range legal {
		by[a.Kind] = append(by[a.Kind], a)
		if a.Kind == abilities.Shoot {
			switch {
			case a.Special:
				special = append(special, a)
			case !shot.Has(a.At):
				fresh = append(fresh, a)
			default:
				any = append(any, a)
			}
		}
	}
	pick := func(as []abilities.Action) (abilities.Action, bool) {
		if len(as) == 0 {
			return abilities.Action{}, false
		}
		return as[rng.IntN(len(as))], true
	}
	if rng.IntN(3) == 0 {
		if a, ok := pick(by[abilities.Move]); ok {
			return a
		}
	}
	if rng.IntN(5) == 0 {
		if a, ok := pick(by[abilities.Salvo]); ok {
			return a
		}
	}
	if rng.IntN(3) == 0 {
		if a, ok := pick(special); ok {
			return a
		}
	}
	if rng.IntN(8) == 0 {
		if a, ok := pick(any); ok {
			return a
		}
	}
	if a, ok := pick(fresh); ok {
		return a
	}
	a, _ := pick(legal)
	return a
}

// firstOnly lists up to 4 keys of a missing from b.
func firstOnly(a, b []string) []string {
	var out []string
	for _, k := range a {
		if _, ok := slices.BinarySearch(b, k); !ok && len(out) < 4 {
			out = append(out, k)
		}
	}
	return out
}

type bruteCase struct {
	heavy bool // 6x6: thousands of worlds; the full-size check only
	name  string
	w, h  int
	fleet []int
	sides [2]abilities.Side
	opt   abilities.Options
}

// bruteGame plays one random game and checks the tracker of seat obs
// against the reference after every event; it returns the checks made.
func bruteGame(t *testing.T, c bruteCase, seed uint64) int {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 77))
	base, err := battleship.NewRules(grid.MustBoard(c.w, c.h, nil), c.fleet)
	require.NoError(t, err)
	r, err := abilities.NewRules(base, c.sides[0], c.sides[1], c.opt)
	require.NoError(t, err)
	all := allPlacements(base)
	ps := [2]battleship.Placement{all[rng.IntN(len(all))], all[rng.IntN(len(all))]}
	first := rng.IntN(2)
	obs := rng.IntN(2)
	enemy := 1 - obs
	g, err := abilities.NewGame(r, ps[0], ps[1], first)
	require.NoError(t, err)
	ref := newReference(t, r, obs, ps[obs], first)
	tr, err := hiddenfleet.New(r, obs)
	require.NoError(t, err)
	checks := 0
	check := func(where string) {
		got, st, err := tr.Layouts(1<<20, 0)
		require.NoError(t, err)
		require.Zero(t, st.Unsure)
		var dead []grid.Cell
		for _, s := range tr.SunkShips() {
			if len(s) == 1 {
				dead = append(dead, s[0])
			}
		}
		keys := make([]string, len(got))
		for i, l := range got {
			keys[i] = trackerKey(l, dead)
		}
		slices.Sort(keys)
		want := ref.layouts()
		if !slices.Equal(want, keys) {
			t.Fatalf("seed %d, %s: reference %d layouts, tracker %d; only in the reference %v; only in the tracker %v; true %s",
				seed, where, len(want), len(keys), firstOnly(want, keys), firstOnly(keys, want), layoutKey(g.Ships(enemy)))
		}
		checks++
	}
	check("start")
	turnStart := true // the next action begins a turn
	var group *abilities.Action
	var want []abilities.Event
	flush := func() {
		if group != nil {
			ref.step(group, false, want)
			for _, v := range want {
				tr.Observe(v)
			}
			// while the observer itself is asked, it has not been told
			// yet what the enemy's shot was (its 3-deck's ability shows
			// with the answer); the reference, replaying the real action,
			// knows: check once answered
			if n := len(want); n == 0 || want[n-1].Ask == nil || want[n-1].Ask.Seat != obs {
				check(fmt.Sprintf("after %s", group))
			}
		}
		group, want = nil, nil
	}
	for steps := 0; g.Status() == game.Running && steps < 400; steps++ {
		seat := g.ToAct()
		if turnStart && g.Turn() == enemy && c.opt.HideMoves {
			flush()
			ref.step(nil, true, nil)
		}
		turnStart = false
		a := randomAction(g, rng)
		st, err := g.Apply(a)
		require.NoError(t, err)
		v := st.Views[obs]
		hiddenAnswer := seat == enemy && a.Kind == abilities.Defend
		switch {
		case hiddenAnswer:
			if !v.Silent {
				want = append(want, v)
			}
		case seat == enemy && a.Kind == abilities.Move:
			flush()
			if !c.opt.HideMoves {
				ref.step(nil, false, []abilities.Event{v})
				tr.Observe(v)
				check("after a move")
			}
		default:
			flush()
			act := a
			group = &act
			if !v.Silent {
				want = append(want, v)
			}
		}
		if v.TurnEnd || st.Views[seat].TurnEnd {
			turnStart = true
		}
	}
	flush()
	return checks
}

// bruteGames scales the brute-force check: games per case (0: the test's
// own count). The figure in docs/abilities.md ran
// go test ./belief/hiddenfleet -run BruteForceFullSize -brute.games 250
// (-brute.from: the first seed).
var (
	bruteGames = flag.Int("brute.games", 0, "games per case of the brute-force checks (0: the default)")
	bruteFrom  = flag.Uint64("brute.from", 0, "seed of the first game of each case")
)

func bruteCases() []bruteCase {
	ai, hu := abilities.AI, abilities.Humans
	every := abilities.Options{SalvoShootsAgain: true, FalseMissAnyHit: true, MoveMayTouch: true, HideMoves: true, ScanAfloatOnly: true, SuppressPassive: true}
	return []bruteCase{
		{false, "5x5 4,3,2,1,1 ai-humans", 5, 5, []int{4, 3, 2, 1, 1}, [2]abilities.Side{ai, hu}, abilities.Options{}},
		{false, "5x5 4,3,2,1,1 ai-ai", 5, 5, []int{4, 3, 2, 1, 1}, [2]abilities.Side{ai, ai}, abilities.Options{}},
		{false, "5x5 4,3,2,1,1 humans-humans", 5, 5, []int{4, 3, 2, 1, 1}, [2]abilities.Side{hu, hu}, abilities.Options{}},
		{false, "5x5 4,3,2,1,1 every option", 5, 5, []int{4, 3, 2, 1, 1}, [2]abilities.Side{hu, ai}, every},
		{false, "5x5 4,2,1,1 ai-humans", 5, 5, []int{4, 2, 1, 1}, [2]abilities.Side{ai, hu}, abilities.Options{}},
		{false, "5x5 4,2,1,1 hidden moves", 5, 5, []int{4, 2, 1, 1}, [2]abilities.Side{hu, ai}, abilities.Options{HideMoves: true}},
		{false, "5x5 4,2,1,1 salvo shoots again", 5, 5, []int{4, 2, 1, 1}, [2]abilities.Side{ai, hu}, abilities.Options{SalvoShootsAgain: true, FalseMissAnyHit: true}},
		{false, "5x5 4,3,1,1 scan afloat, passive suppression", 5, 5, []int{4, 3, 1, 1}, [2]abilities.Side{ai, hu}, abilities.Options{
			ScanAfloatOnly: true, SuppressPassive: true, FalseMissAnyHit: true}},
		{false, "5x5 4,3,1,1 humans mirror, moves may touch", 5, 5, []int{4, 3, 1, 1}, [2]abilities.Side{hu, hu}, abilities.Options{MoveMayTouch: true}},
		{true, "6x6 4,2,1 ai-humans", 6, 6, []int{4, 2, 1}, [2]abilities.Side{ai, hu}, abilities.Options{}},
	}
}

func runBrute(t *testing.T, games int, cases []bruteCase) {
	for _, c := range cases {
		n := games
		if c.heavy {
			n = max(1, games/20)
		}
		t.Run(c.name, func(t *testing.T) {
			games := n
			checks := 0
			for seed := *bruteFrom; seed < *bruteFrom+uint64(games); seed++ {
				checks += bruteGame(t, c, seed)
			}
			t.Logf("%d games, %d checks, 0 mismatches", games, checks)
		})
	}
}

// TestLayoutsMatchBruteForce plays random games on small boards and checks,
// after every event, that the tracker's consistent layouts are exactly the
// layouts of the enemy's hidden histories the rules engine allows.
func TestLayoutsMatchBruteForce(t *testing.T) {
	games, cases := 2, bruteCases()
	if race.Enabled {
		games, cases = 1, cases[:4]
	}
	if *bruteGames > 0 {
		games = *bruteGames
	}
	var light []bruteCase
	for _, c := range cases {
		if !c.heavy {
			light = append(light, c)
		}
	}
	runBrute(t, games, light)
}

// TestLayoutsMatchBruteForceFullSize is the same check over more games.
func TestLayoutsMatchBruteForceFullSize(t *testing.T) {
	race.SkipFullSize(t)
	games := 3
	if *bruteGames > 0 {
		games = *bruteGames
	}
	runBrute(t, games, bruteCases())
}

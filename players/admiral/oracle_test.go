package admiral_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/audit"
	"github.com/kaisen-ai/kaisen/endgame"
	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/cputime"
	"github.com/kaisen-ai/kaisen/internal/race"
	"github.com/kaisen-ai/kaisen/players"
	"github.com/kaisen-ai/kaisen/players/admiral"
)

// The oracle ceiling (docs/admiral.md, "A ceiling: admiral that knows
// hirota's fleet"): admiral against hirota as `kaisen match` plays it (game
// i of a match seeded S has seed arena.GameSeed(S, i), admiral in seat i%2,
// seat 0 acts first, seat s draws from arena.SeatRand), once as it is
// ("base"), once with admiral told hirota's true initial placement before
// the first action ("oracle", players.RevealEnemy), and optionally with
// hirota told admiral's ("mirror", players.RevealEnemyToJG). The games of
// the three modes have the same seeds, placements and random streams; they
// part where the knowledge changes a decision.

// ceilingMode is what the instrument reveals.
type ceilingMode string

const (
	modeBase   ceilingMode = "base"   // nothing: admiral as it plays
	modeOracle ceilingMode = "oracle" // hirota's placement to admiral
	modeMirror ceilingMode = "mirror" // admiral's placement to hirota
)

// ceilingGame is one played game of the harness.
type ceilingGame struct {
	place   [2]submarine.Placement
	moves   []submarine.Action
	winner  int // seat, -1 for a draw
	adm     *admiral.Admiral
	admSeat int
	// at40 are the fleets after 40 actions (zero when the game ended before).
	at40    [2]submarine.Fleet
	reached bool
	moved   [2]int // moves by seat
	hits    [2]int // attacks that hit, by seat of the attacker
	lastHit int    // the action (from 1) of the last hit, 0 if none
	// rules counts each side's decisions by Explain's state (hirota's rule:
	// attack, flee, approach, pass; admiral's phase: hunt, strike, ...).
	rules [2]map[string]int
	final [2]submarine.Fleet
}

// ceilingCheck is called after every action with the game and the players.
type ceilingCheck func(g *submarine.Game, p *[2]players.Player, cg *ceilingGame)

// playCeiling plays game seed with admiral (made by admF) in admSeat and
// hirota (hirF) in the other seat, revealing per mode.
func playCeiling(t testing.TB, rules *submarine.Rules, admF, hirF players.Factory, seed uint64, admSeat int, mode ceilingMode, check ceilingCheck) *ceilingGame {
	cg := &ceilingGame{admSeat: admSeat, winner: -1, rules: [2]map[string]int{{}, {}}}
	var p [2]players.Player
	for s := range 2 {
		f := hirF
		if s == admSeat {
			f = admF
		}
		p[s] = f(arena.SeatRand(seed, s))
		cg.place[s] = p[s].Place()
	}
	cg.adm = p[admSeat].(*admiral.Admiral)
	switch mode {
	case modeOracle:
		require.NoError(t, admiral.RevealEnemy(cg.adm, cg.place[1-admSeat]))
	case modeMirror:
		require.NoError(t, players.RevealEnemyToJG(p[1-admSeat].(*players.JointGreedy), cg.place[admSeat]))
	}
	g, err := submarine.NewGame(rules, cg.place[0], cg.place[1], 0)
	require.NoError(t, err)
	var view submarine.View
	for g.Status() == game.Running {
		s := g.ToAct()
		a := p[s].Act()
		if ex, ok := p[s].(explain.Explainer); ok {
			cg.rules[s][ex.Explain().State]++
		}
		cg.moves = append(cg.moves, a)
		st, err := g.Apply(a)
		require.NoError(t, err, "game %d action %d", seed, g.Actions())
		if a.Kind == submarine.Move {
			cg.moved[s]++
		} else if st.Actor.Hit != submarine.NoShip {
			cg.hits[s]++
			cg.lastHit = g.Actions()
		}
		g.ViewInto(s, &view)
		p[s].Observe(st.Actor, &view)
		g.ViewInto(1-s, &view)
		p[1-s].Observe(st.Other, &view)
		if g.Actions() == 40 {
			cg.at40, cg.reached = [2]submarine.Fleet{g.Fleet(0), g.Fleet(1)}, true
		}
		if check != nil {
			check(g, &p, cg)
		}
	}
	cg.winner = g.Winner()
	cg.final = [2]submarine.Fleet{g.Fleet(0), g.Fleet(1)}
	require.Zero(t, cg.adm.BeliefErrors())
	return cg
}

// truthOf is fleet f's living cells in fleet order, sunk ships at grid.None
// (belief.Joint's Placement form).
func truthOf(n int, f *submarine.Fleet) submarine.Placement {
	pl := make(submarine.Placement, n)
	for i := range pl {
		pl[i] = grid.None
		if f.Alive.Has(i) {
			pl[i] = f.Pos[i]
		}
	}
	return pl
}

// TestOracleBelief: the instruments work. With RevealEnemy, admiral's belief
// of hirota's fleet holds exactly the true placement after every action of a
// few games (it tracks hirota's moves and sinkings through the normal
// answers); with RevealEnemyToJG, hirota's chart of admiral's fleet does.
// Without a reveal, the harness plays the games `kaisen match` plays.
func TestOracleBelief(t *testing.T) {
	rules := submarine.DefaultRules()
	rules.DrawLimit = 400
	games := 4
	if race.Enabled {
		rules.DrawLimit, games = 120, 2
	}
	admF, err := players.New("admiral", rules, nil)
	require.NoError(t, err)
	hirF, err := players.New("hirota", rules, nil)
	require.NoError(t, err)
	n := len(rules.Fleet)
	for i := range games {
		seed, admSeat := arena.GameSeed(7, i), i%2
		t.Run(fmt.Sprintf("game %d", i), func(t *testing.T) {
			checked := 0
			playCeiling(t, rules, admF, hirF, seed, admSeat, modeOracle, func(g *submarine.Game, _ *[2]players.Player, cg *ceilingGame) {
				j := cg.adm.EnemyBelief()
				require.Equal(t, 1, j.Count(), "action %d", g.Actions())
				hir := g.Fleet(1 - admSeat)
				require.Equal(t, truthOf(n, &hir), j.Placement(0, nil), "action %d", g.Actions())
				checked++
			})
			require.Positive(t, checked)
			playCeiling(t, rules, admF, hirF, seed, admSeat, modeMirror, func(g *submarine.Game, p *[2]players.Player, _ *ceilingGame) {
				chart := players.EnemyChart((*p)[1-admSeat].(*players.JointGreedy))
				require.Len(t, chart, 1, "action %d", g.Actions())
				adm := g.Fleet(admSeat)
				for k := range n {
					if adm.Alive.Has(k) {
						require.Equal(t, adm.Pos[k], grid.Cell(uint8(chart[0]>>(8*k))), "action %d ship %d", g.Actions(), k)
					}
				}
			})
			base := playCeiling(t, rules, admF, hirF, seed, admSeat, modeBase, nil)
			f := [2]players.Factory{hirF, hirF}
			f[admSeat] = admF
			want, err := arena.PlayGame(rules, f[0], f[1], seed, nil)
			require.NoError(t, err)
			require.Equal(t, want.Winner, base.winner)
			require.Equal(t, want.Actions, len(base.moves))
		})
	}
}

// ceilingRecord is one game of TestOracleCeiling, one JSON line of
// KAISEN_ORACLE_OUT. Values are for admiral.
type ceilingRecord struct {
	Index   int         `json:"index"`
	Seed    uint64      `json:"seed"`
	Mode    ceilingMode `json:"mode"`
	AdmSeat int         `json:"adm_seat"`
	Result  string      `json:"result"` // W, D or L for admiral
	Actions int         `json:"actions"`
	CPUms   int64       `json:"cpu_ms"`
	// Class is the audit's class of admiral's game (common knowledge of
	// both fleets); Known, LocatedAdm, LocatedHir its plies (-1: never).
	Class      string `json:"class"`
	Known      int    `json:"known"`
	LocatedAdm int    `json:"located_adm"`
	LocatedHir int    `json:"located_hir"`
	// PI is the ply from which both players know both fleets in this mode
	// (base: Known; oracle: admiral's fleet common knowledge, since admiral
	// knows hirota's from the start; mirror: hirota's fleet common
	// knowledge), -1 if never; PIValue the solver's value there for
	// admiral, PIMaterial admiral's hp against hirota's.
	PI         int    `json:"pi"`
	PIValue    string `json:"pi_value,omitempty"`
	PIMaterial string `json:"pi_material,omitempty"`
	// Init is the solver's value of the initial position (both fleets
	// known) for the side to move, with admiral to move and with hirota to
	// move: Win, Draw, Loss or Unknown (the bounded search proves no draw).
	InitAdm string `json:"init_adm_to_move"`
	InitHir string `json:"init_hir_to_move"`
	// At40 is the hp of each side's strongest living ship and summed hp
	// after 40 actions (absent when the game ended before).
	At40         *[4]int `json:"at40,omitempty"` // admiral max, hirota max, admiral sum, hirota sum
	At40Material string  `json:"at40_material,omitempty"`
	// Final is the material at the end (admiral's hp against hirota's).
	Final string `json:"final"`
	// AdmPhases and HirRules count the decisions by Explain's state.
	AdmPhases map[string]int `json:"adm_phases"`
	HirRules  map[string]int `json:"hir_rules"`
	// Moves and hits by side; LastHit the action of the last hit.
	AdmMoves  int `json:"adm_moves"`
	HirMoves  int `json:"hir_moves"`
	AdmHits   int `json:"adm_hits"`
	HirHits   int `json:"hir_hits"`
	LastHit   int `json:"last_hit"`
	Exploits  int `json:"exploits"`
	PerfectAt int `json:"perfect_at"`
	// With an exact table only (KAISEN_ORACLE_TABLE): WinAdm and WinHir
	// are the first ply before which the side to move (admiral, hirota)
	// holds a position the solver values won for it with both fleets
	// known (a win forced against any defence), -1 if none; FinalAdm and
	// FinalHir the value of a drawn game's final position for admiral
	// with admiral, hirota to move.
	WinAdm   int    `json:"win_adm"`
	WinHir   int    `json:"win_hir"`
	FinalAdm string `json:"final_adm_to_move,omitempty"`
	FinalHir string `json:"final_hir_to_move,omitempty"`
}

func outcomeName(v endgame.Value) string { return v.Outcome.String() }

func hpStats(f *submarine.Fleet, n int) (best, sum int) {
	for i := range n {
		if f.Alive.Has(i) {
			best = max(best, int(f.HP[i]))
			sum += int(f.HP[i])
		}
	}
	return best, sum
}

// solveAt is the solver's value for seat `for` of the position after ply
// actions of the game, with the fleets' hp lists.
func solveAt(rules *submarine.Rules, sv *endgame.Solver, cg *ceilingGame, ply, seat int) (endgame.Value, string, error) {
	g, err := submarine.NewGame(rules, cg.place[0], cg.place[1], 0)
	if err != nil {
		return endgame.Value{}, "", err
	}
	for _, a := range cg.moves[:ply] {
		if _, err := g.Apply(a); err != nil {
			return endgame.Value{}, "", err
		}
	}
	f := [2]submarine.Fleet{g.Fleet(0), g.Fleet(1)}
	turn := g.ToAct()
	pos, err := endgame.NewPosition(rules, f[turn], f[1-turn])
	if err != nil {
		return endgame.Value{}, "", err
	}
	v, err := sv.Solve(pos)
	if err != nil {
		return v, "", err
	}
	if turn != seat {
		v = flipValue(v)
	}
	return v, material(&f, seat, len(rules.Fleet)), nil
}

// scanWins values every position of the game with both fleets known, for
// the side to move (table probes: exact tables only), and a drawn game's
// final position with either side to move.
func scanWins(rules *submarine.Rules, sv *endgame.Solver, cg *ceilingGame, r *ceilingRecord) error {
	g, err := submarine.NewGame(rules, cg.place[0], cg.place[1], 0)
	if err != nil {
		return err
	}
	first := [2]*int{&r.WinHir, &r.WinHir}
	first[cg.admSeat] = &r.WinAdm
	for k, a := range cg.moves {
		s := g.ToAct()
		if *first[s] < 0 {
			f := [2]submarine.Fleet{g.Fleet(0), g.Fleet(1)}
			pos, err := endgame.NewPosition(rules, f[s], f[1-s])
			if err != nil {
				return err
			}
			v, err := sv.Solve(pos)
			if err != nil {
				return err
			}
			if v.Outcome == endgame.Win {
				*first[s] = k
			}
		}
		if _, err := g.Apply(a); err != nil {
			return err
		}
	}
	if g.Status() != game.Drawn {
		return nil
	}
	f := [2]submarine.Fleet{g.Fleet(0), g.Fleet(1)}
	for _, m := range []struct {
		mover int
		dst   *string
	}{{cg.admSeat, &r.FinalAdm}, {1 - cg.admSeat, &r.FinalHir}} {
		pos, err := endgame.NewPosition(rules, f[m.mover], f[1-m.mover])
		if err != nil {
			return err
		}
		v, err := sv.Solve(pos)
		if err != nil {
			return err
		}
		if m.mover != cg.admSeat {
			v = flipValue(v)
		}
		*m.dst = outcomeName(v)
	}
	return nil
}

// material is seat's hp list against the other seat's, e.g. "3+1 v 2".
func material(f *[2]submarine.Fleet, seat, n int) string {
	return hpList(&f[seat], n) + " v " + hpList(&f[1-seat], n)
}

// flipValue is v for the other side (a draw or an unknown stays).
func flipValue(v endgame.Value) endgame.Value {
	if o, ok := map[endgame.Outcome]endgame.Outcome{endgame.Win: endgame.Loss, endgame.Loss: endgame.Win}[v.Outcome]; ok {
		v.Outcome = o
	}
	return v
}

// hpList is f's living hp, largest first, e.g. "3+1".
func hpList(f *submarine.Fleet, n int) string {
	var hp []int
	for i := range n {
		if f.Alive.Has(i) {
			hp = append(hp, int(f.HP[i]))
		}
	}
	slices.Sort(hp)
	slices.Reverse(hp)
	s := make([]string, len(hp))
	for k, h := range hp {
		s[k] = strconv.Itoa(h)
	}
	return strings.Join(s, "+")
}

// initValue is the solver's value of the initial position for the side to
// move, with seat mover to move.
func initValue(rules *submarine.Rules, sv *endgame.Solver, place [2]submarine.Placement, mover int) (endgame.Value, error) {
	pos, err := endgame.NewPosition(rules, submarine.NewFleet(rules, place[mover]), submarine.NewFleet(rules, place[1-mover]))
	if err != nil {
		return endgame.Value{}, err
	}
	return sv.Solve(pos)
}

// record analyses one played game.
func ceilingAnalyse(rules *submarine.Rules, aud *audit.Auditor, sv *endgame.Solver, exact bool, cg *ceilingGame, mode ceilingMode) (ceilingRecord, error) {
	adm, hir := cg.admSeat, 1-cg.admSeat
	r := ceilingRecord{Mode: mode, AdmSeat: adm, Actions: len(cg.moves), LastHit: cg.lastHit,
		AdmMoves: cg.moved[adm], HirMoves: cg.moved[hir], AdmHits: cg.hits[adm], HirHits: cg.hits[hir],
		Exploits: cg.adm.Exploits(), PerfectAt: cg.adm.PerfectAt(), PI: -1, WinAdm: -1, WinHir: -1}
	switch cg.winner {
	case adm:
		r.Result = "W"
	case hir:
		r.Result = "L"
	default:
		r.Result = "D"
	}
	rep, err := aud.Game(cg.place, 0, cg.moves)
	if err != nil {
		return r, err
	}
	r.Class, r.Known, r.LocatedAdm, r.LocatedHir = rep.Class(adm).String(), rep.Known, rep.Located[adm], rep.Located[hir]
	switch mode {
	case modeBase:
		r.PI = rep.Known
	case modeOracle:
		r.PI = rep.Located[adm]
	case modeMirror:
		r.PI = rep.Located[hir]
	}
	if r.PI >= 0 {
		v, mat, err := solveAt(rules, sv, cg, r.PI, adm)
		if err != nil {
			return r, err
		}
		r.PIValue, r.PIMaterial = outcomeName(v), mat
	}
	for _, m := range []struct {
		seat int
		dst  *string
	}{{adm, &r.InitAdm}, {hir, &r.InitHir}} {
		v, err := initValue(rules, sv, cg.place, m.seat)
		if err != nil {
			return r, err
		}
		*m.dst = outcomeName(v)
	}
	if cg.reached {
		n := len(rules.Fleet)
		am, as := hpStats(&cg.at40[adm], n)
		hm, hs := hpStats(&cg.at40[hir], n)
		r.At40 = &[4]int{am, hm, as, hs}
		r.At40Material = material(&cg.at40, adm, n)
	}
	r.Final, r.AdmPhases, r.HirRules = material(&cg.final, adm, len(rules.Fleet)), cg.rules[adm], cg.rules[hir]
	if exact {
		if err := scanWins(rules, sv, cg, &r); err != nil {
			return r, err
		}
	}
	return r, nil
}

// envInt reads an integer environment variable, def when unset.
func envInt(t testing.TB, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	v, err := strconv.Atoi(s)
	require.NoError(t, err, name)
	return v
}

// TestOracleCeiling measures the ceiling (docs/admiral.md, "A ceiling:
// admiral that knows hirota's fleet"). It runs only when KAISEN_ORACLE_GAMES
// is set:
//
//	KAISEN_ORACLE_GAMES=400 KAISEN_ORACLE_SEED=2044 KAISEN_ORACLE_LIMIT=2000 \
//	KAISEN_ORACLE_MODES=base,oracle KAISEN_ORACLE_OUT=oracle.jsonl \
//	go test ./players -run '^TestOracleCeiling$' -v -timeout 0
//
// (KAISEN_ORACLE_FIRST: first game index, default 0; KAISEN_ORACLE_TABLE:
// the solver's table limit for the recorded values, see below). Every game of every
// mode is a line of KAISEN_ORACLE_OUT (ceilingRecord); the log sums them up.
func TestOracleCeiling(t *testing.T) {
	games := envInt(t, "KAISEN_ORACLE_GAMES", 0)
	if games <= 0 {
		t.Skip("set KAISEN_ORACLE_GAMES to measure the oracle ceiling")
	}
	seed := uint64(envInt(t, "KAISEN_ORACLE_SEED", 2044))
	first := envInt(t, "KAISEN_ORACLE_FIRST", 0)
	rules := submarine.DefaultRules()
	rules.DrawLimit = envInt(t, "KAISEN_ORACLE_LIMIT", 2000)
	var modes []ceilingMode
	for m := range strings.SplitSeq(cmpOr(os.Getenv("KAISEN_ORACLE_MODES"), "base,oracle"), ",") {
		switch mode := ceilingMode(strings.TrimSpace(m)); mode {
		case modeBase, modeOracle, modeMirror:
			modes = append(modes, mode)
		default:
			t.Fatalf("KAISEN_ORACLE_MODES: unknown mode %q (base, oracle, mirror)", m)
		}
	}
	admF, err := players.New("admiral", rules, nil)
	require.NoError(t, err)
	hirF, err := players.New("hirota", rules, nil)
	require.NoError(t, err)
	aud, err := audit.New(rules, audit.Options{})
	require.NoError(t, err)
	// The values of the record: by the default table and search, or with
	// KAISEN_ORACLE_TABLE a larger table (1<<29 covers three ships against
	// three: exact values of every position, built once: about 5 CPU-min and
	// 3 GB).
	limit := envInt(t, "KAISEN_ORACLE_TABLE", 0)
	sv, err := endgame.Shared(rules, endgame.Options{TableLimit: limit})
	require.NoError(t, err)
	var out *bufio.Writer
	if path := os.Getenv("KAISEN_ORACLE_OUT"); path != "" {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		require.NoError(t, err)
		defer func() { require.NoError(t, f.Close()) }()
		out = bufio.NewWriter(f)
		defer func() { require.NoError(t, out.Flush()) }()
	}
	recs := map[ceilingMode][]ceilingRecord{}
	start := time.Now()
	for i := first; i < first+games; i++ {
		gs := arena.GameSeed(seed, i)
		for _, mode := range modes {
			c0, _ := cputime.Process()
			cg := playCeiling(t, rules, admF, hirF, gs, i%2, mode, nil)
			c1, _ := cputime.Process()
			r, err := ceilingAnalyse(rules, aud, sv, limit >= 1<<29, cg, mode)
			require.NoError(t, err, "game %d %s", i, mode)
			r.Index, r.Seed, r.CPUms = i, gs, (c1 - c0).Milliseconds()
			recs[mode] = append(recs[mode], r)
			if out != nil {
				b, err := json.Marshal(r)
				require.NoError(t, err)
				_, err = out.Write(append(b, '\n'))
				require.NoError(t, err)
				require.NoError(t, out.Flush())
			}
		}
		if (i-first+1)%50 == 0 {
			t.Logf("%d games in %s", i-first+1, time.Since(start).Round(time.Second))
		}
	}
	for _, mode := range modes {
		t.Log(ceilingSummary(mode, recs[mode], recs[modeBase]))
	}
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// ceilingSummary sums up one mode's games, paired by game with base's.
func ceilingSummary(mode ceilingMode, rs, base []ceilingRecord) string {
	var b strings.Builder
	n := len(rs)
	count := func(f func(*ceilingRecord) string) map[string]int {
		m := map[string]int{}
		for k := range rs {
			m[f(&rs[k])]++
		}
		return m
	}
	res := count(func(r *ceilingRecord) string { return r.Result })
	ci := arena.Wilson(res["W"], n, arena.Z95)
	fmt.Fprintf(&b, "%s: %d games, admiral %d / %d / %d (W / D / L), wins %.1f%% [%.1f, %.1f]\n",
		mode, n, res["W"], res["D"], res["L"], 100*float64(res["W"])/float64(max(n, 1)), 100*ci.Lo, 100*ci.Hi)
	if mode != modeBase && len(base) == n {
		rank := map[string]int{"L": 0, "D": 1, "W": 2}
		better, worse := 0, 0
		for k := range rs {
			switch d := rank[rs[k].Result] - rank[base[k].Result]; {
			case d > 0:
				better++
			case d < 0:
				worse++
			}
		}
		fmt.Fprintf(&b, "  paired with base: %d games better, %d worse\n", better, worse)
	}
	fmt.Fprintf(&b, "  value for admiral where both know both fleets: %v\n",
		count(func(r *ceilingRecord) string { return cmpOr(r.PIValue, "never") }))
	fmt.Fprintf(&b, "  audit classes: %v\n", count(func(r *ceilingRecord) string { return r.Class }))
	fmt.Fprintf(&b, "  initial position, admiral to move: %v; hirota to move: %v\n",
		count(func(r *ceilingRecord) string { return r.InitAdm }), count(func(r *ceilingRecord) string { return r.InitHir }))
	var cpu int64
	for k := range rs {
		cpu += rs[k].CPUms
	}
	fmt.Fprintf(&b, "  CPU %.1f s (%.2f s a game)", float64(cpu)/1000, float64(cpu)/1000/float64(max(n, 1)))
	return b.String()
}

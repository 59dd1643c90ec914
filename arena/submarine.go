package arena

import (
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"

	"github.com/kaisen-ai/kaisen/audit"
	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players"
	"github.com/kaisen-ai/kaisen/replay"
)

// SubmarineEntrant is one player of a submarine match: its name (for tables, logs and
// replays) and the factory that makes a fresh instance for every game.
type SubmarineEntrant struct {
	Name    string
	Factory players.Factory
}

// Submarine is the submarine-game Family: P1 and P2 play under Rules.
type Submarine struct {
	Rules  *submarine.Rules
	P1, P2 SubmarineEntrant
}

var _ Family = (*Submarine)(nil)

// Game implements Family.
func (s *Submarine) Game() string { return replay.GameSubmarine }

// Players implements Family.
func (s *Submarine) Players() (p1, p2 string) { return s.P1.Name, s.P2.Name }

// NewTable implements Family.
func (s *Submarine) NewTable(log *slog.Logger) Table {
	return &subTable{fam: s, t: newTable(s.Rules, log)}
}

// Validate checks that the family can play.
func (s *Submarine) Validate() error {
	return validateFamily(s.Game(), s.Rules, s.P1.Factory != nil && s.P2.Factory != nil)
}

type subTable struct {
	fam  *Submarine
	t    *table
	keep keeper
}

func (st *subTable) Play(d Deal) (GameResult, error) {
	f, seats := seatPlayers(d, st.fam.P1.Name, st.fam.P2.Name,
		keep(&st.keep, d, 0, st.fam.P1.Factory), keep(&st.keep, d, 1, st.fam.P2.Factory))
	var rec *replay.SubmarineWriter
	if d.Replay != nil {
		rec = replay.NewSubmarineWriter(d.Replay, st.fam.Rules, replay.SubmarineHeader{Seed: d.Seed, Match: d.matchRef(), Players: seats})
	}
	st.t.record = d.Audit
	r := st.t.play(&f, d.Seed, rec, d.Explain)
	r.Index, r.P1Seat = d.Index, d.P1Seat
	st.keep.end(&st.t.seatRands, d, &r)
	if d.Audit {
		if err := st.t.auditGame(&r, st.t.placed); err != nil {
			return r, err
		}
	}
	if rec != nil {
		if err := rec.Flush(); err != nil {
			return r, err
		}
	}
	return r, nil
}

// GameOptions are the optional extras of PlayGame.
type GameOptions struct {
	Names   [2]string        // player names by seat, for the replay header
	Replay  io.Writer        // where to write the replay; nil = none
	Explain bool             // record each actor's Decision (explain.Explainer)
	Match   *replay.MatchRef // the game's place in a match, for the replay header
	Log     *slog.Logger     // a panicking player's stack goes here (debug level); nil = discard
}

// PlayGame plays one submarine game under rules between a player made by f0
// in seat 0 (which acts first) and one made by f1 in seat 1. The player in
// seat s draws from SeatRand(seed, s), so the same seed and players give the
// same game. A player that panics, places illegally or acts illegally
// forfeits (GameResult.Forfeit, Reason); the error is about writing the
// replay only. opts may be nil.
func PlayGame(rules *submarine.Rules, f0, f1 players.Factory, seed uint64, opts *GameOptions) (GameResult, error) {
	if opts == nil {
		opts = &GameOptions{}
	}
	t := newTable(rules, opts.Log)
	var rec *replay.SubmarineWriter
	if opts.Replay != nil {
		h := replay.SubmarineHeader{Seed: seed, Match: opts.Match}
		for s := range 2 {
			h.Players[s] = replay.SeatInfo{Seat: s, Name: opts.Names[s]}
		}
		rec = replay.NewSubmarineWriter(opts.Replay, rules, h)
	}
	f := [2]players.Factory{f0, f1}
	r := t.play(&f, seed, rec, opts.Explain)
	if opts.Match != nil {
		r.Index = opts.Match.Index
	}
	if rec != nil {
		return r, rec.Flush()
	}
	return r, nil
}

// table plays submarine games one after another, reusing its random sources
// and buffers. The action loop does not allocate (beyond what the players and
// replay writing do).
type table struct {
	seatRands
	rules *submarine.Rules
	view  submarine.View

	// For the solver audit (Deal.Audit): record the game's placements and
	// actions.
	record  bool
	placed  [2]submarine.Placement
	moves   []submarine.Action
	auditor *audit.Auditor
}

func newTable(rules *submarine.Rules, log *slog.Logger) *table {
	t := &table{rules: rules}
	t.init(log)
	return t
}

// setup creates seat's player and asks it for its placement, turning a panic
// into a message.
func (t *table) setup(f players.Factory, seat int) (p players.Player, pl submarine.Placement, panicMsg string) {
	defer func() {
		if v := recover(); v != nil {
			p, pl, panicMsg = nil, nil, panicText(v)
			t.log.Debug("player panicked", "seat", seat, "panic", panicMsg, "stack", string(debug.Stack()))
		}
	}()
	p = f(t.rng[seat])
	return p, p.Place(), ""
}

func (t *table) play(f *[2]players.Factory, seed uint64, rec *replay.SubmarineWriter, explain bool) GameResult {
	res := GameResult{Seed: seed, Winner: -1}
	var (
		p  [2]players.Player
		pl [2]submarine.Placement
		ff forfeits
	)
	for s := range 2 {
		t.reseed(seed, s)
		var msg string
		p[s], pl[s], msg = t.setup(f[s], s)
		switch {
		case msg != "":
			ff.set(s, replay.ForfeitPanic, "panic: "+msg)
		default:
			if err := t.rules.ValidatePlacement(pl[s]); err != nil {
				ff.set(s, replay.ForfeitPlacement, err.Error())
			}
		}
		if rec != nil {
			rec.Placement(s, pl[s])
		}
	}
	if ff.any() {
		// The game never starts: a seat that could not place loses; both: draw.
		res.Winner = ff.walkover()
		return t.finish(&res, &ff, rec)
	}
	t.placed, t.moves = pl, t.moves[:0]
	g, err := submarine.NewGame(t.rules, pl[0], pl[1], 0)
	if err != nil { // placements were validated above
		panic(fmt.Sprintf("arena: start game: %v", err))
	}
	ex := explainers(&p, explain && rec != nil)
	lp := t.loop(g, &p, rec, &ex)
	if lp.panicked && g.Status() == game.Running {
		g.Forfeit(lp.seat)
		ff.set(lp.seat, replay.ForfeitPanic, "panic: "+lp.msg)
	} else if lp.panicked {
		t.log.Warn("player panicked after the game ended; the result stands", "seat", lp.seat, "panic", lp.msg)
	}
	if lp.illegal != nil {
		ff.set(lp.illegalSeat, replay.ForfeitIllegal, lp.illegal.Error())
	}
	res.Actions = g.Actions()
	res.Winner = g.Winner()
	return t.finish(&res, &ff, rec)
}

// finish fills in the forfeits and writes the replay's result line.
func (t *table) finish(res *GameResult, ff *forfeits, rec *replay.SubmarineWriter) GameResult {
	forfeits := ff.fill(res)
	if rec != nil {
		rec.Result(replay.SubmarineResult{Outcome: res.replayOutcome(), Winner: res.Winner, Actions: res.Actions, Forfeits: forfeits})
	}
	return *res
}

// loopEnd says how the action loop ended besides the game's own outcome.
type loopEnd struct {
	panicked    bool
	seat        int // whose code was running at the panic
	msg         string
	illegal     error // the illegal action that ended the game, if any
	illegalSeat int
}

// loop plays actions until the game ends or a player panics.
func (t *table) loop(g *submarine.Game, p *[2]players.Player, rec *replay.SubmarineWriter, ex *[2]explain.Explainer) (end loopEnd) {
	defer func() {
		if v := recover(); v != nil {
			end.panicked, end.msg = true, panicText(v)
			t.log.Debug("player panicked", "seat", end.seat, "panic", end.msg, "stack", string(debug.Stack()))
		}
	}()
	n := 0
	for g.Status() == game.Running {
		s := g.ToAct()
		end.seat = s
		a := p[s].Act()
		if t.record {
			t.moves = append(t.moves, a)
		}
		var d *explain.Decision
		if ex[s] != nil {
			dec := explain.Full(ex[s])
			d = &dec
		}
		st, err := g.Apply(a)
		n++
		if err != nil {
			end.illegal, end.illegalSeat = err, s
		}
		if rec != nil {
			rec.Step(n, &st, err, d)
		}
		g.ViewInto(s, &t.view)
		p[s].Observe(st.Actor, &t.view)
		end.seat = 1 - s
		g.ViewInto(1-s, &t.view)
		p[1-s].Observe(st.Other, &t.view)
	}
	return end
}

package arena

import (
	"io"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/kaisen-ai/kaisen/adjudicate"
	"github.com/kaisen-ai/kaisen/audit"
	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/submarine"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
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
func (s *Submarine) Game() string { return subrecord.Name }

// Players implements Family.
func (s *Submarine) Players() (p1, p2 string) { return s.P1.Name, s.P2.Name }

// NewTable implements Family.
func (s *Submarine) NewTable(log *slog.Logger) Table {
	a := &subAudit{rules: s.Rules}
	return newGameTable(tableSpec[*submarine.Game, submarine.Placement, submarine.Action, submarine.Step, submarine.Told]{
		rules:  s.Rules,
		names:  [2]string{s.P1.Name, s.P2.Name},
		f:      [2]subFactory{players.AdaptReused(s.P1.Factory), players.AdaptReused(s.P2.Factory)}, // a table plays one game at a time
		record: func(w io.Writer, h recordHeader) subRecorder { return subrecord.NewRecorder(w, s.Rules, h) },
		tap:    a.tap,
		after:  a.after,
		judge: func(k int) (replay.DrawJudge[*submarine.Game, submarine.Step], error) {
			return adjudicate.NewDraw(s.Rules, k)
		},
	}, log)
}

// Validate checks that the family can play.
func (s *Submarine) Validate() error {
	return validateFamily(s.Game(), s.Rules, s.P1.Factory != nil && s.P2.Factory != nil)
}

type (
	subFactory  = game.Factory[submarine.Placement, submarine.Action, submarine.Told]
	subRecorder = recorder[submarine.Placement, submarine.Action, submarine.Step]
)

// subAudit records the placements and actions of the deals to audit
// (Deal.Audit) and audits each with the exact endgame solver once played.
type subAudit struct {
	rules   *submarine.Rules
	placed  [2]submarine.Placement
	moves   []submarine.Action
	auditor *audit.Auditor
}

func (a *subAudit) tap(d Deal) game.Recorder[submarine.Placement, submarine.Action, submarine.Step] {
	if !d.Audit {
		return nil
	}
	a.moves = a.moves[:0]
	return a
}

func (a *subAudit) Placement(seat int, p submarine.Placement, _ bool) { a.placed[seat] = p }

func (a *subAudit) Action(_, _ int, m submarine.Action, _ *submarine.Step, _ error, _ *explain.Decision) {
	a.moves = append(a.moves, m)
}

func (a *subAudit) Result(*game.Result) {}

func (a *subAudit) after(d Deal, res *GameResult) error {
	if !d.Audit {
		return nil
	}
	return a.auditGame(res)
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
	setup := game.Setup[submarine.Placement, submarine.Action, submarine.Step, submarine.Told]{
		Factories: [2]subFactory{players.Adapt(f0), players.Adapt(f1)},
		Rands:     [2]*rand.Rand{SeatRand(seed, 0), SeatRand(seed, 1)},
		Explain:   opts.Explain,
	}
	var rec subRecorder
	if opts.Replay != nil {
		h := recordHeader{Seed: seed, Match: opts.Match}
		for s := range 2 {
			h.Players[s] = replay.SeatInfo{Seat: s, Name: opts.Names[s]}
		}
		rec = subrecord.NewRecorder(opts.Replay, rules, h)
		setup.Record = rec
	} else {
		setup.Explain = false
	}
	r := game.NewTable(rules, opts.Log).Play(&setup)
	res := gameResult(Deal{Seed: seed}, &r)
	if opts.Match != nil {
		res.Index = opts.Match.Index
	}
	if rec != nil {
		return res, rec.Flush()
	}
	return res, nil
}

// Timed returns a copy of s whose players add the duration of every Act to
// add1 (P1's players) or add2 (P2's); placements are not timed (kaisen
// tournament --timing), as Game.Timed does for the games on the contract.
// A timed player explains what its player explains (an empty Decision
// when it does not) and wraps it (game.Wrapper: its Learner is found
// through it).
func (s *Submarine) Timed(add1, add2 func(time.Duration)) Family {
	t := *s
	t.P1.Factory, t.P2.Factory = timedSubmarine(s.P1.Factory, add1), timedSubmarine(s.P2.Factory, add2)
	return &t
}

func timedSubmarine(f players.Factory, add func(time.Duration)) players.Factory {
	return func(rng *rand.Rand) players.Player { return &subTimed{Player: f(rng), add: add} }
}

// subTimed is a submarine-game player whose every Act adds its duration
// to add.
type subTimed struct {
	players.Player
	add func(time.Duration)
}

func (t *subTimed) Act() submarine.Action {
	start := time.Now()
	a := t.Player.Act()
	t.add(time.Since(start))
	return a
}

// Explain passes the wrapped player's explanation on (an empty Decision when
// it has none).
func (t *subTimed) Explain() explain.Decision {
	if e, ok := t.Player.(explain.Explainer); ok {
		return e.Explain()
	}
	return explain.Decision{}
}

// Unwrap implements game.Wrapper.
func (t *subTimed) Unwrap() any { return t.Player }

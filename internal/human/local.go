package human

import (
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/replay"
)

// Options are the settings of a game between a seat and an AI in-process
// (Play, and its per-game forms PlayAgainstWith,
// PlayBattleshipAgainstWith, PlayAbilitiesAgainstWith). The zero value plays a
// game whose every line before its end is a function of what the rules
// told the person, and prints the AI's reasons after the end.
type Options struct {
	// Reveal prints the AI's explanation of each of its actions during
	// play, after the action is reported (kaisen play --reveal-ai). It
	// reveals the AI's fleet: an attack candidate lies within reach of a
	// hidden ship, a move names its row or column, a shot's reason says
	// where the AI's ships are not.
	Reveal bool
	// Replay, when not nil, receives the game's replay (the format kaisen
	// match --replays --explain writes) with the AI's explanation of each
	// of its actions, written as the game is played; it is the caller's to
	// keep from the person until the game is over. A write error is
	// returned at the end.
	Replay io.Writer
	// Seed and AI are recorded in the replay header: the seed the caller
	// derived the AI's stream from, and the AI's name ("" = "ai").
	Seed uint64
	AI   string
}

// Human is the replay's name of the person's seat.
const Human = "human"

// EndHeader is the first line the host prints after a game is over: the
// lines before it are the game as the person was told it, those after it
// the AI's secrets (its fleet, its reasons).
const EndHeader = "game over: the enemy's secrets follow"

func (o Options) seats(seat int) [2]replay.SeatInfo {
	ai := o.AI
	if ai == "" {
		ai = "ai"
	}
	var s [2]replay.SeatInfo
	s[seat], s[1-seat] = replay.SeatInfo{Seat: seat, Name: Human}, replay.SeatInfo{Seat: 1 - seat, Name: ai}
	return s
}

// Local is what the one loop of a game between a person and an AI
// in-process (Play) needs of a game beyond its rules: the replay, the
// AI's actions in words, and the end of the game as the person is told
// it. One per game (submarine.go, battleship.go, abilities.go).
type Local[G game.State[A, S], P, A, S, O any] struct {
	Rules game.Rules[G, P, A, S, O]
	// Record starts the game's replay on w: the arena's recorder of the
	// game (arena.SubmarineRecorder ...).
	Record func(w io.Writer, h arena.RecordHeader) arena.Recorder[P, A, S]
	// Action says an action of the AI's as the reasons list it ("attack
	// [2,3]", "shot E5").
	Action func(a A) string
	// End tells the person, once the game is over, how it ended: EndHeader
	// first, then the AI's fleet and the result (a game that never
	// started may say only why). It reports whether the AI's reasons
	// follow.
	End func(w io.Writer, e *End[G, P]) bool
	// AI, when set, wraps the AI's player for the game (the submarine game
	// tells it the start of the game, as this host always has).
	AI func(p game.Player[P, A, O]) game.Player[P, A, O]
}

// End is how a game between a person and an AI ended, for Local.End.
type End[G, P any] struct {
	Game       G // the final state (the zero G when the game never started)
	Placements [2]P
	Result     *game.Result
	Seat       int  // the person's
	Resigned   bool // the person typed "resign"
	InputEnded bool // the person's input ended (or they resigned)
}

// endReason says why a game that a forfeit ended ended, "" for a game
// played out: the person resigned (or their input ended, which resigns),
// or a seat's action was refused.
func endReason[G, P any](e *End[G, P]) string {
	s := firstForfeit(e.Result)
	switch {
	case e.Resigned:
		return "you resigned"
	case s == e.Seat && e.InputEnded:
		return "your input ended, which resigns"
	case s == e.Seat:
		return "you forfeited: " + e.Result.Forfeits[s].Reason
	case s >= 0:
		return "the AI forfeited: " + e.Result.Forfeits[s].Reason
	}
	return ""
}

// Play plays one game in-process with game.Table between the person h in
// seat `seat` and ai; seat first acts first. During play the person is
// told only what the rules tell its seat (the AI's reasons only with
// opt.Reveal). When the game is over the game's End tells the person how
// it ended and the AI's reasons for each of its actions follow. It
// returns the table's result and the replay's write error. A seat whose
// placement is invalid (the person's input ended) loses, as on a server;
// a player that panics forfeits.
func Play[G game.State[A, S], P, A, S, O any](l *Local[G, P, A, S, O], h *Person[P, A, O], ai game.Player[P, A, O], seat, first int, opt Options) (game.Result, error) {
	why := &reasons[P, A, S]{ai: 1 - seat, action: l.Action}
	if opt.Reveal {
		h.AfterOpponent = func() string { return why.last }
	}
	var rec arena.Recorder[P, A, S]
	if opt.Replay != nil {
		rec = l.Record(opt.Replay, arena.RecordHeader{Seed: opt.Seed, Players: opt.seats(seat), First: first})
		why.next = rec
	}
	if l.AI != nil {
		ai = l.AI(ai)
	}
	var f [2]game.Factory[P, A, O]
	f[seat] = func(*rand.Rand, int) game.Player[P, A, O] { return h }
	f[1-seat] = func(*rand.Rand, int) game.Player[P, A, O] { return ai }
	t := game.NewTable(l.Rules, nil)
	res := t.Play(&game.Setup[P, A, S, O]{Factories: f, First: first, Record: why, Explain: true})
	if l.End(h.out, &End[G, P]{Game: t.Game(), Placements: why.placed, Result: &res, Seat: seat, Resigned: h.resigned, InputEnded: h.eof}) {
		why.print(h.out, opt.AI)
	}
	if rec == nil {
		return res, nil
	}
	return res, rec.Flush()
}

// reasons records the game for Play: the placements, the AI's
// explanations of its actions (kept for the end of the game), and the
// replay when one is written (next).
type reasons[P, A, S any] struct {
	ai     int // the AI's seat
	action func(A) string
	next   game.Recorder[P, A, S] // the replay (nil: none)
	placed [2]P
	lines  []string // "n action: why", one per explained action
	last   string   // the summary of the AI's last action, for Options.Reveal
}

func (rs *reasons[P, A, S]) Placement(seat int, p P, ok bool) {
	rs.placed[seat] = p
	if rs.next != nil {
		rs.next.Placement(seat, p, ok)
	}
}

func (rs *reasons[P, A, S]) Action(n, seat int, a A, st *S, err error, d *explain.Decision) {
	if seat == rs.ai {
		rs.last = ""
		if d != nil {
			rs.last = replay.Summarize(d)
		}
		if rs.last != "" {
			rs.lines = append(rs.lines, fmt.Sprintf("%4d %s: %s", n, rs.action(a), rs.last))
		}
	}
	if rs.next != nil {
		rs.next.Action(n, seat, a, st, err, d)
	}
}

func (rs *reasons[P, A, S]) Result(r *game.Result) {
	if rs.next != nil {
		rs.next.Result(r)
	}
}

// print writes the AI's reasons, one line per explained action.
func (rs *reasons[P, A, S]) print(w io.Writer, ai string) {
	if ai == "" {
		ai = "the AI"
	}
	if len(rs.lines) == 0 {
		fmt.Fprintf(w, "%s gave no reasons\n", ai)
		return
	}
	fmt.Fprintf(w, "why %s chose each of its actions (action number, action: reason):\n", ai)
	for _, l := range rs.lines {
		fmt.Fprintln(w, l)
	}
}

// firstForfeit is the first seat that forfeited in r, -1 when none did.
func firstForfeit(r *game.Result) int {
	for s, f := range r.Forfeits {
		if f.Kind != "" {
			return s
		}
	}
	return -1
}

// ResultEnd is the end of a game whose Local has no words of its own (a
// game defined by its games.Def alone): EndHeader, then the result for
// the person's seat and any forfeit. The AI's reasons follow.
func ResultEnd[G, P any](w io.Writer, e *End[G, P]) bool {
	fmt.Fprintln(w, EndHeader)
	r := e.Result
	switch r.Winner {
	case e.Seat:
		fmt.Fprintln(w, "you won")
	case -1:
		fmt.Fprintln(w, "a draw")
	default:
		fmt.Fprintln(w, "you lost")
	}
	if s := firstForfeit(r); s >= 0 {
		who := "the AI"
		if s == e.Seat {
			who = "you"
		}
		fmt.Fprintf(w, "(%s forfeited: %s)\n", who, r.Forfeits[s].Kind)
	}
	return true
}

package replay

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game"
)

// The record codec: what a game's record format gives the generic replay
// code so that one Rerun verifies the replays of every game by playing them
// again through the game contract (Rules.Start, State.Apply), and one
// visitor draws them (text and HTML).

// ErrMismatch is wrapped by the errors of Rerun.Play (every game's Verify):
// the replay does not describe what the rules engine does with the recorded
// placements and actions.
var ErrMismatch = errors.New("replay: mismatch")

// Mismatch is an error wrapping ErrMismatch, in words.
func Mismatch(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMismatch, fmt.Sprintf(format, args...))
}

// Rules are the parts of a game's rules (game.Rules) a re-play uses.
type Rules[G game.State[A, S], P, A, S any] interface {
	ValidatePlacement(p P) error
	Start(pl [2]P, first int) (G, error)
	Count(g G, n int) game.Count
}

// Codec is a game's record format of its action lines L (submarine steps,
// Battleship shots, abilities actions), as Rerun re-plays them.
type Codec[A, S, L any] interface {
	// Noun names a line in errors: "step", "shot", "action".
	Noun() string
	// Move is line l's number (from 1) and seat, and whether it records
	// an illegal action.
	Move(l *L) (n, seat int, illegal bool)
	// Where names what l acted on, for errors: "" or " at [0,3]".
	Where(l *L) string
	// Decode is the action l records (an error wraps ErrFormat).
	Decode(l *L) (A, error)
	// Check compares what l records of the rules' answer with st, what
	// Apply returned for l's action (err: it was illegal); a difference is
	// an error wrapping ErrMismatch.
	Check(l *L, st *S, err error) error
	// Tally is a count in the words of the game's result line: "12
	// actions", "shots [8 4]"; a recorded and a computed count agree when
	// their tallies do.
	Tally(c game.Count) string
}

// Ending is what a result line records of how a game ended.
type Ending struct {
	Outcome  string // OutcomeWin, OutcomeDraw or OutcomeAborted
	Winner   int
	Count    game.Count // what the result line counts (actions, or shots)
	Forfeits []Forfeit
	// Adjudicated is the reason of an adjudicated game
	// (AdjudicatedDraw, AdjudicatedCap), "" for none.
	Adjudicated string
}

// Rerun is one read replay of a game as its record format decodes it, to be
// played again through the rules.
type Rerun[G game.State[A, S], P, A, S, L any] struct {
	Rules      Rules[G, P, A, S]
	Codec      Codec[A, S, L]
	First      int
	Players    [2]SeatInfo
	Placements [2]P // as recorded (the zero P when none was)
	Lines      []L
	End        Ending
	// Protocol: ForfeitProtocol (the seat to act broke the protocol) is a
	// forfeit outside the rules in this game.
	Protocol bool
	// Adjudication is the header's adjudication (nil: none, and a result
	// that says it was adjudicated is a mismatch). The re-play adjudicates
	// as the host did (Adjudication.Adjudge after every action that leaves
	// the game running): the game must end exactly where it fires.
	Adjudication *Adjudication
	// Judge is the game's draw adjudication, needed when Adjudication.Draw
	// is set (nil: the game has none).
	Judge DrawJudge[G, S]
}

// Visit sees a re-played game: once at the start (l and st nil), then after
// every recorded action, its line l, the step st and Apply's error err.
type Visit[G, S, L any] func(g G, l *L, st *S, err error)

// Play re-plays the replay and checks that it is exactly what the rules
// produce: each action acts on its seat's turn, what its line records of
// the answer is the rules' (Codec.Check), an action is marked illegal
// exactly when the rules refuse it, and the result (outcome, winner, count,
// which seats forfeited and how) follows. A game may end before the rules
// end it only by one forfeit outside the rules (ForfeitPanic,
// ForfeitWaiting, and ForfeitProtocol where Protocol) or by the server
// stopping it (OutcomeAborted, winner -1, no forfeit), and may not start
// only when a recorded placement is invalid (ForfeitPlacement, or
// ForfeitPanic for a player that crashed before placing). visit, when not
// nil, sees the game as it goes (a game that never started is checked
// without a visit). Play does not re-run the players.
func (rr *Rerun[G, P, A, S, L]) Play(visit Visit[G, S, L]) error {
	if err := checkSeats(rr.First, rr.Players); err != nil {
		return err
	}
	var bad [2]bool
	for s := range 2 {
		bad[s] = rr.Rules.ValidatePlacement(rr.Placements[s]) != nil
	}
	if bad[0] || bad[1] {
		return rr.unstarted(bad)
	}
	g, err := rr.Rules.Start(rr.Placements, rr.First)
	if err != nil {
		return Mismatch("start: %v", err)
	}
	if visit != nil {
		visit(g, nil, nil, nil)
	}
	adjudicated, err := rr.playLines(g, visit)
	if err != nil {
		return err
	}
	if adjudicated != "" {
		return rr.checkAdjudicated(adjudicated, rr.Rules.Count(g, len(rr.Lines)))
	}
	if err := rr.checkNotAdjudicated(); err != nil {
		return err
	}
	lastIllegal := false
	if n := len(rr.Lines); n > 0 {
		_, _, lastIllegal = rr.Codec.Move(&rr.Lines[n-1])
	}
	return rr.end(g, lastIllegal)
}

// playLines plays every recorded line on g (Play), adjudicating as the
// header says: the reason when the adjudication ended the game after the
// last line ("" when it did not), a mismatch when it fires before.
func (rr *Rerun[G, P, A, S, L]) playLines(g G, visit Visit[G, S, L]) (string, error) {
	if err := rr.Adjudication.Validate(); err != nil {
		return "", fmt.Errorf("%w: %w", ErrFormat, err)
	}
	if rr.Adjudication.On() && rr.Judge != nil {
		rr.Judge.Reset()
	}
	for i := range rr.Lines {
		l := &rr.Lines[i]
		st, err := rr.apply(g, i, l)
		if err != nil {
			return "", err
		}
		if visit != nil {
			visit(g, l, &st.st, st.err)
		}
		if !rr.Adjudication.On() || g.Status() != game.Running {
			continue
		}
		why, err := rr.adjudicate(g, i+1, &st.st)
		switch {
		case err != nil:
			return "", err
		case why != "" && i < len(rr.Lines)-1:
			return "", Mismatch("%s %d: the adjudication (%s) ends the game there (%s), but the replay goes on", rr.Codec.Noun(), i+1, rr.Adjudication, why)
		case why != "":
			return why, nil
		}
	}
	return "", nil
}

// Verify is rr.Play without a visit, for a game's Verify on what its
// record format built: an error building rr (err) is returned as it is.
func Verify[G game.State[A, S], P, A, S, L any](rr *Rerun[G, P, A, S, L], err error) error {
	if err != nil {
		return err
	}
	return rr.Play(nil)
}

// Frame is a re-played game as its renderings draw it, after its N-th
// recorded action (0: the start, Line nil then): Line the action's line,
// St the step the rules gave and Err why the action was illegal (nil when
// it was legal).
type Frame[G, S, L any] struct {
	N    int
	Game G
	Line *L
	St   S
	Err  error
}

// Frames is Play that shows visit (when not nil) each frame of the game;
// the frame is reused from one call to the next.
func (rr *Rerun[G, P, A, S, L]) Frames(visit func(f *Frame[G, S, L])) error {
	if visit == nil {
		return rr.Play(nil)
	}
	f := new(Frame[G, S, L])
	return rr.Play(func(g G, l *L, st *S, err error) {
		f.Game = g
		if l != nil {
			f.N, _, _ = rr.Codec.Move(l)
			f.Line, f.St, f.Err = l, *st, err
		}
		visit(f)
	})
}

// HTMLFrames is Frames that adds to d the frame of each position: the
// start (seat -1, "start", no decision), then one per recorded action,
// told by action (the acting seat, the action in words and the actor's
// recorded decision); board draws each seat's board after it.
func (rr *Rerun[G, P, A, S, L]) HTMLFrames(d *HTMLData, action func(f *Frame[G, S, L]) (seat int, text string, why *explain.Decision),
	board func(f *Frame[G, S, L], seat int) HTMLBoard) error {
	return rr.Frames(func(f *Frame[G, S, L]) {
		seat, text, why := -1, "start", (*explain.Decision)(nil)
		if f.Line != nil {
			seat, text, why = action(f)
		}
		d.AddFrame(f.N, seat, text, why, func(s int) HTMLBoard { return board(f, s) })
	})
}

// applied is one action's step and Apply's error.
type applied[S any] struct {
	st  S
	err error
}

// apply plays the i-th line l on g and checks it.
func (rr *Rerun[G, P, A, S, L]) apply(g G, i int, l *L) (applied[S], error) {
	var out applied[S]
	c := rr.Codec
	noun := c.Noun()
	n, seat, illegal := c.Move(l)
	if n != i+1 {
		return out, fmt.Errorf("%w: %s %d is numbered %d", ErrFormat, noun, i+1, n)
	}
	if g.Status() != game.Running {
		return out, Mismatch("%s %d after the game ended", noun, n)
	}
	if seat != g.ToAct() {
		return out, Mismatch("%s %d by seat %d, but it is seat %d's turn", noun, n, seat, g.ToAct())
	}
	a, err := c.Decode(l)
	if err != nil {
		return out, fmt.Errorf("%s %d: %w", noun, n, err)
	}
	out.st, out.err = g.Apply(a)
	if illegal != (out.err != nil) {
		return out, Mismatch("%s %d%s: recorded as illegal=%t, the engine says %s", noun, n, c.Where(l), illegal, errOrLegal(out.err))
	}
	if out.err != nil {
		g.Forfeit(seat) // as the hosts do (game.State.Apply)
	}
	if err := c.Check(l, &out.st, out.err); err != nil {
		return out, err
	}
	return out, nil
}

// end checks the result of g, played to its last recorded line (whose
// action was illegal when lastIllegal).
func (rr *Rerun[G, P, A, S, L]) end(g G, lastIllegal bool) error {
	res := &rr.End
	noun := rr.Codec.Noun()
	var want []Forfeit
	if n := len(rr.Lines); lastIllegal {
		_, seat, _ := rr.Codec.Move(&rr.Lines[n-1])
		want = append(want, Forfeit{Seat: seat, Kind: ForfeitIllegal})
	}
	count := rr.Rules.Count(g, len(rr.Lines))
	if g.Status() == game.Running && res.Outcome == OutcomeAborted {
		return rr.checkResult(OutcomeAborted, -1, count, nil)
	}
	if g.Status() == game.Running {
		outside, kinds := outsideRules, ForfeitPanic+" or "+ForfeitWaiting
		if rr.Protocol {
			outside = bsOutsideRules
			kinds = fmt.Sprintf("%s, %s or %s", ForfeitPanic, ForfeitWaiting, ForfeitProtocol)
		}
		ff, err := earlyForfeit(res.Forfeits, outside, len(rr.Lines), noun+"s", kinds)
		if err != nil {
			return err
		}
		if ff.Kind == ForfeitProtocol && ff.Seat != g.ToAct() {
			return Mismatch("a %s forfeit of seat %d, but it was seat %d's turn", ForfeitProtocol, ff.Seat, g.ToAct())
		}
		g.Forfeit(ff.Seat)
		want = append(want, ff)
	}
	outcome := OutcomeWin
	if g.Status() == game.Drawn {
		outcome = OutcomeDraw
	}
	return rr.checkResult(outcome, g.Winner(), count, want)
}

// unstarted checks a game that never started because of the invalid
// placements bad (or that the server stopped during the handshake).
func (rr *Rerun[G, P, A, S, L]) unstarted(bad [2]bool) error {
	if n := len(rr.Lines); n > 0 {
		if rr.End.Outcome == OutcomeAborted {
			return Mismatch("%d moves in a game aborted before both placements were in", n)
		}
		return Mismatch("%d %ss after an invalid placement", n, rr.Codec.Noun())
	}
	if rr.End.Outcome == OutcomeAborted { // stopped during the handshake
		return rr.checkResult(OutcomeAborted, -1, game.Count{}, nil)
	}
	outcome, winner, want := placementForfeits(bad, rr.End.Forfeits)
	return rr.checkResult(outcome, winner, game.Count{}, want)
}

// checkResult compares the recorded result with the one the rules give.
func (rr *Rerun[G, P, A, S, L]) checkResult(outcome string, winner int, c game.Count, want []Forfeit) error {
	res := &rr.End
	got, tally := rr.Codec.Tally(res.Count), rr.Codec.Tally(c)
	if res.Outcome != outcome || res.Winner != winner || got != tally {
		return Mismatch("result %s/winner %d/%s, the engine says %s/winner %d/%s",
			res.Outcome, res.Winner, got, outcome, winner, tally)
	}
	if got := forfeitKinds(res.Forfeits); !slices.Equal(got, want) {
		return Mismatch("forfeits %s, the engine says %s", formatForfeits(got), formatForfeits(want))
	}
	return nil
}

// outsideRules reports whether a forfeit kind ends a game outside the rules
// (ForfeitPanic, ForfeitWaiting), as opposed to ForfeitIllegal and
// ForfeitPlacement, which the rules decide.
func outsideRules(kind string) bool {
	return kind == ForfeitPanic || kind == ForfeitWaiting
}

// bsOutsideRules is outsideRules with ForfeitProtocol.
func bsOutsideRules(kind string) bool {
	return outsideRules(kind) || kind == ForfeitProtocol
}

func errOrLegal(err error) string {
	if err == nil {
		return "legal"
	}
	return err.Error()
}

// earlyForfeit returns the forfeit (without its reason) that ended a game
// the rules had not ended after played moves (steps or shots): the result
// must record exactly one, by seat 0 or 1, of a kind outside the rules
// (outside; kinds names them in the error).
func earlyForfeit(fs []Forfeit, outside func(kind string) bool, played int, moves, kinds string) (Forfeit, error) {
	if len(fs) != 1 || !outside(fs[0].Kind) {
		return Forfeit{}, Mismatch("the game is still running after %d %s, but the result records no %s forfeit", played, moves, kinds)
	}
	seat := fs[0].Seat
	if seat != 0 && seat != 1 {
		return Forfeit{}, Mismatch("forfeit of seat %d", seat)
	}
	return Forfeit{Seat: seat, Kind: fs[0].Kind}, nil
}

// checkSeats checks the header's first seat and players' seat numbers.
func checkSeats(first int, players [2]SeatInfo) error {
	if first != 0 && first != 1 {
		return fmt.Errorf("%w: first seat %d", ErrFormat, first)
	}
	for s, p := range players {
		if p.Seat != s {
			return fmt.Errorf("%w: players[%d] has seat %d", ErrFormat, s, p.Seat)
		}
	}
	return nil
}

// placementForfeits returns the result the rules give a game that never
// started because of the invalid placements bad: the outcome, the winner
// and the expected forfeits, ForfeitPlacement for each bad seat, or
// ForfeitPanic where recorded (it crashed before placing).
func placementForfeits(bad [2]bool, recorded []Forfeit) (outcome string, winner int, want []Forfeit) {
	for s := range 2 {
		if !bad[s] {
			continue
		}
		kind := ForfeitPlacement
		for _, f := range recorded {
			if f.Seat == s && f.Kind == ForfeitPanic {
				kind = ForfeitPanic // it crashed before placing
			}
		}
		want = append(want, Forfeit{Seat: s, Kind: kind})
	}
	outcome, winner = OutcomeWin, 0
	switch {
	case bad[0] && bad[1]:
		outcome, winner = OutcomeDraw, -1
	case bad[0]:
		winner = 1
	}
	return outcome, winner, want
}

// forfeitKinds returns fs without their reasons: the part the rules decide.
func forfeitKinds(fs []Forfeit) []Forfeit {
	out := make([]Forfeit, len(fs))
	for i, f := range fs {
		out[i] = Forfeit{Seat: f.Seat, Kind: f.Kind}
	}
	return out
}

// formatForfeits lists forfeits as "seat 1 illegal, seat 0 panic".
func formatForfeits(fs []Forfeit) string {
	if len(fs) == 0 {
		return "none"
	}
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = fmt.Sprintf("seat %d %s", f.Seat, f.Kind)
	}
	return strings.Join(parts, ", ")
}

package hygiene

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	abwire "github.com/kaisen-ai/kaisen/game/abilities/wire"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bswire "github.com/kaisen-ai/kaisen/game/battleship/wire"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/server"
)

// SeatAction is an action and the seat that takes it.
type SeatAction struct {
	Seat   int
	Action abilities.Action
}

// AbilitiesGame is one side of an abilities twin: both placements, seat 0
// first, and every action played (answers included); the seat to act next
// then resigns.
type AbilitiesGame struct {
	Place  [2]battleship.Placement
	Played []SeatAction
}

// AbilitiesTwin is two games of the abilities variant that differ only in
// what Seat was never told: where the opponent's ships that Seat has not
// hit lie, where its 1-decks moved, and whether it still holds its false
// miss.
type AbilitiesTwin struct {
	Rules *abilities.Rules
	Seat  int
	A, B  AbilitiesGame
	// Moved is how many opponent ships B relocated, OtherMoves how many of
	// the opponent's 1-deck moves went elsewhere than in A.
	Moved, OtherMoves int
	// LieHeld is whether the opponent holds its false miss at the end of
	// A and of B (it differs when the seat was told a false miss in A and
	// a real miss in B, or the other way round).
	LieHeld [2]bool
}

// NewAbilitiesTwin plays a random game of r from rng (uniform layouts, a
// random legal action at each step with moves, salvoes and specials
// favoured, questions answered at random), cuts it after a random number
// of actions (at most maxActions) and returns it with a twin. B relocates
// up to three opponent ships the seat was never told a hit on (so a 4-deck
// whose only hit was answered with a false miss may move, and then the lie
// is never told), replays every opponent move as a random legal move of
// B's 1-decks, answers the questions B asks and A did not with a false
// miss or no air defence, and drops A's answers to questions B does not
// ask. A proposal is kept only when the seat is told exactly the same
// events (those it is told at all, in order) and the same seat acts next
// (rejection sampling, 400 proposals). ErrNoTwin: none was.
func NewAbilitiesTwin(r *abilities.Rules, rng *rand.Rand, maxActions int) (*AbilitiesTwin, error) {
	place, err := uniformFleets(r.Base, rng, "abilities")
	if err != nil {
		return nil, err
	}
	g, err := abilities.NewGame(r, place[0], place[1], 0)
	if err != nil {
		return nil, fmt.Errorf("hygiene: abilities game: %w", err)
	}
	seat := rng.IntN(2)
	want := 1 + rng.IntN(maxActions)
	var played []SeatAction
	for len(played) < want && g.Status() == game.Running {
		s := g.ToAct()
		a := randomAbAction(g, rng)
		if _, err := g.Apply(a); err != nil {
			return nil, fmt.Errorf("hygiene: a legal abilities action refused: %w", err)
		}
		played = append(played, SeatAction{Seat: s, Action: a})
	}
	if g.Status() != game.Running {
		played = played[:len(played)-1]
	}
	tw := &AbilitiesTwin{Rules: r, Seat: seat}
	tw.A.Place = place
	tw.A.Played = played
	ref, ok := abReplay(r, seat, place, played, nil, rng)
	if !ok {
		return nil, fmt.Errorf("hygiene: game A does not replay")
	}
	opp := 1 - seat
	told := ref.hitsTold
	b := slices.Clone(place[opp])
	var best *abRun
	for range 400 {
		if tw.Moved == 3 {
			break
		}
		cand := b
		if tw.Moved > 0 || rng.IntN(4) != 0 { // else only the moves change
			i := rng.IntN(len(b))
			if slices.ContainsFunc(b[i], told.Has) {
				continue
			}
			cand = slices.Clone(b)
			cand[i] = randomShip(r.Base, len(b[i]), rng)
			if cand[i] == nil || r.Base.ValidatePlacement(cand) != nil || slices.Equal(cand[i], b[i]) {
				continue
			}
		}
		var p [2]battleship.Placement
		p[seat], p[opp] = place[seat], cand
		run, ok := abReplay(r, seat, p, played, ref, rng)
		if !ok {
			continue
		}
		if !reflect.DeepEqual(cand, b) {
			tw.Moved++
		}
		b, best = cand, run
		if tw.Moved == 0 && run.otherMoves == 0 {
			best = nil // the same game: keep looking
		}
	}
	if best == nil {
		return nil, ErrNoTwin
	}
	tw.B.Place[seat], tw.B.Place[opp] = place[seat], b
	tw.B.Played = best.played
	tw.OtherMoves = best.otherMoves
	tw.LieHeld = [2]bool{!ref.lieSpent, !best.lieSpent}
	return tw, nil
}

// abRun is a replay of an abilities game.
type abRun struct {
	played     []SeatAction
	told       []abilities.Event // what the seat was told, in order
	next       int               // the seat to act after the last action
	hitsTold   grid.Set          // opponent cells the seat was told hit or kill
	otherMoves int
	lieSpent   bool // the opponent spent its false miss
}

// abReplay plays the seat's actions of played as they are and the
// opponent's as B would (see NewAbilitiesTwin) with placements p. With a
// reference run ref it is ok only when the seat is told what ref told it
// and the same seat acts next.
func abReplay(r *abilities.Rules, seat int, p [2]battleship.Placement, played []SeatAction, ref *abRun, rng *rand.Rand) (*abRun, bool) {
	g, err := abilities.NewGame(r, p[0], p[1], 0)
	if err != nil {
		return nil, false
	}
	opp := 1 - seat
	var mine, theirs []abilities.Action
	for _, sa := range played {
		if sa.Seat == seat {
			mine = append(mine, sa.Action)
		} else {
			theirs = append(theirs, sa.Action)
		}
	}
	isAnswer := func(a abilities.Action) bool { return a.Kind == abilities.Defend || a.Kind == abilities.Reveal }
	run := &abRun{}
	mi, ti := 0, 0
	for g.Status() == game.Running {
		var a abilities.Action
		actor := g.ToAct()
		switch q := g.Pending(); {
		case actor == seat:
			if mi == len(mine) {
				goto done
			}
			a, mi = mine[mi], mi+1
		case q != nil && ti < len(theirs) && isAnswer(theirs[ti]) && (theirs[ti].Kind == abilities.Reveal) == (q.Ask == abilities.AskReveal):
			a, ti = theirs[ti], ti+1
		case q != nil && mi == len(mine) && ti == len(theirs):
			goto done // the cut: A's opponent was not asked here, or resigns when asked
		case q != nil && q.Ask == abilities.AskReveal:
			return nil, false // a reveal A never made
		case q != nil:
			a = abilities.Action{Kind: abilities.Defend, Use: q.Ask == abilities.AskFalseMiss}
		default:
			for ti < len(theirs) && isAnswer(theirs[ti]) { // questions B does not ask
				ti++
			}
			if ti == len(theirs) {
				goto done
			}
			a, ti = theirs[ti], ti+1
			if a.Kind == abilities.Move && ref != nil {
				var moves []abilities.Action
				for _, m := range g.Legal() {
					if m.Kind == abilities.Move {
						moves = append(moves, m)
					}
				}
				if len(moves) == 0 {
					return nil, false
				}
				m := moves[rng.IntN(len(moves))]
				if !m.Equal(a) {
					run.otherMoves++
				}
				a = m
			}
		}
		st, err := g.Apply(a)
		if err != nil {
			return nil, false
		}
		run.played = append(run.played, SeatAction{Seat: actor, Action: a})
		if v := st.Views[seat]; !v.Silent {
			k := len(run.told)
			if ref != nil && (k == len(ref.told) || !reflect.DeepEqual(v, ref.told[k])) {
				return nil, false
			}
			run.told = append(run.told, v)
			for _, c := range v.Cells {
				if v.Attacker == seat && c.Outcome != battleship.Miss {
					run.hitsTold.Add(c.At)
				}
			}
		}
	}
	return nil, false // the game ended: a cut leaves it running
done:
	for ti < len(theirs) && isAnswer(theirs[ti]) {
		ti++
	}
	if mi != len(mine) || ti != len(theirs) {
		return nil, false
	}
	run.next = g.ToAct()
	run.lieSpent = g.FalseMissSpent(opp)
	if ref != nil && (run.next != ref.next || len(run.told) != len(ref.told)) {
		return nil, false
	}
	return run, true
}

// randomAbAction is a random legal action of g: a move, a salvo or a
// special shot one time in five each when legal, else a shot at a cell
// not shot before (any cell when every cell was), or a random answer to
// the pending question.
func randomAbAction(g *abilities.Game, rng *rand.Rand) abilities.Action {
	legal := g.Legal()
	if g.Pending() != nil {
		return legal[rng.IntN(len(legal))]
	}
	shot := g.Shot(1 - g.Turn())
	var move, salvo, special, shoot []abilities.Action
	for _, a := range legal {
		switch {
		case a.Kind == abilities.Move:
			move = append(move, a)
		case a.Kind == abilities.Salvo:
			salvo = append(salvo, a)
		case a.Kind == abilities.Shoot && !shot.Has(a.At) && a.Special:
			special = append(special, a)
		case a.Kind == abilities.Shoot && !shot.Has(a.At):
			shoot = append(shoot, a)
		}
	}
	for _, set := range [][]abilities.Action{move, salvo, special} {
		if len(set) > 0 && rng.IntN(5) == 0 {
			return set[rng.IntN(len(set))]
		}
	}
	if len(shoot) > 0 {
		return shoot[rng.IntN(len(shoot))]
	}
	return legal[rng.IntN(len(legal))]
}

// Server is g as a game of an abilities pair listener with r's sides and
// options, the seat to act after the last action resigning with a shot
// off the board (illegal).
func (g *AbilitiesGame) Server(r *abilities.Rules, seat int) (ServerGame, error) {
	sg := ServerGame{Seat: seat, Abilities: true, Listener: server.ListenerConfig{Game: abilities.Name, Opponent: "pair"}}
	sg.Listener.Abilities.Sides = []string{r.Sides[0].String(), r.Sides[1].String()}
	sg.Listener.Abilities.Options = r.Options
	for s := range 2 {
		sg.Hello[s] = [][]byte{bswire.EncodeShips(r.Base, g.Place[s])}
	}
	gm, err := abilities.NewGame(r, g.Place[0], g.Place[1], 0)
	if err != nil {
		return sg, fmt.Errorf("hygiene: abilities game: %w", err)
	}
	for _, sa := range g.Played {
		sg.Turns[sa.Seat] = append(sg.Turns[sa.Seat], abwire.EncodeAction(r, sa.Action))
		if _, err := gm.Apply(sa.Action); err != nil {
			return sg, fmt.Errorf("hygiene: abilities action %v: %w", sa.Action, err)
		}
	}
	sg.Resign = gm.ToAct()
	sg.Turns[sg.Resign] = append(sg.Turns[sg.Resign], []byte(fmt.Sprintf(`{"shoot":{"to":[%d,%d]}}`, r.Base.Board.Height(), r.Base.Board.Width())))
	return sg, nil
}

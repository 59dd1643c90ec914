package human_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/abilities"
	abrecord "github.com/kaisen-ai/kaisen/game/abilities/record"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/internal/human"
	"github.com/kaisen-ai/kaisen/internal/race"
	abplayers "github.com/kaisen-ai/kaisen/players/abilities"
)

// The abilities seat's hygiene test: subPublic and bsPublic for the
// abilities game. The scripted person (abPerson) reads the screen, so
// the stand-in host, which tells a fresh seat only what the rules tell
// its seat (abilities.Rules.Tell), gets the same lines typed exactly when
// it prints the same screen.

// abCell is a replay's [row, col] cell on r's board.
func abCell(t *testing.T, r *battleship.Rules, rc bsrecord.RC) grid.Cell {
	t.Helper()
	c, ok := r.Cell(rc[0], rc[1])
	require.True(t, ok, "cell %v on the board", rc)
	return c
}

// abAction decodes a replay's action on r's board.
func abAction(t *testing.T, r *battleship.Rules, a abrecord.Action) abilities.Action {
	t.Helper()
	out := abilities.Action{At: -1, To: -1, Special: a.Special, Use: a.Use}
	found := false
	for k := abilities.Shoot; k <= abilities.Defend; k++ {
		if k.String() == a.Kind {
			out.Kind, found = k, true
		}
	}
	require.True(t, found, "kind %q", a.Kind)
	if a.At != nil {
		out.At = abCell(t, r, *a.At)
	}
	if a.To != nil {
		out.To = abCell(t, r, *a.To)
	}
	for _, rc := range a.Cells {
		out.Cells = append(out.Cells, abCell(t, r, rc))
	}
	return out
}

// abPublic is the stand-in host of an abilities game.
func abPublic(t *testing.T, rp []byte, seed uint64, seat int) string {
	t.Helper()
	rec, err := abrecord.Read(bytes.NewReader(rp))
	require.NoError(t, err)
	require.NoError(t, abrecord.Verify(rec), "the replay verifies")
	r, err := rec.Rules()
	require.NoError(t, err)
	var pl [2]battleship.Placement
	for s := range 2 {
		for _, ship := range rec.Placements[s].Ships {
			var sh battleship.Ship
			for _, rc := range ship {
				sh = append(sh, abCell(t, r.Base, rc))
			}
			pl[s] = append(pl[s], sh)
		}
	}
	var screen bytes.Buffer
	p := newABPerson(seed, r.Sides[seat])
	h := human.NewAbilities(r, seat, bufio.NewReader(&typist{screen: &screen, next: p.next, max: 5000}), &screen, rand.New(rand.NewPCG(seed, 2)))
	require.Equal(t, pl[seat].Normalize(), h.Place().Normalize(), "the person places as in the game")
	g, err := r.Start(pl, rec.Header.First)
	require.NoError(t, err)
	var told abilities.Told
	for _, ra := range rec.Actions {
		a := abAction(t, r.Base, ra)
		if ra.Seat == seat {
			require.True(t, a.Equal(h.Person.Act()), "action %d: the person acts as in the game", ra.N)
		}
		st, err := g.Apply(a)
		require.NoError(t, err, "action %d", ra.N)
		if r.Tell(g, &st, err, seat, &told) {
			h.Person.Observe(told)
		}
	}
	return screen.String()
}

// leakyAB is a planted leak: a host that writes the AI's placement to the
// person's screen when the AI places.
type leakyAB struct {
	abplayers.Player
	out io.Writer
}

func (l leakyAB) Place() battleship.Placement {
	p := l.Player.Place()
	fmt.Fprintf(l.out, "(the AI placed at %v)\n", p)
	return p
}

// TestAbilitiesSeatPrintsOnlyPublicEvents is TestSeatPrintsOnlyPublicEvents
// for the abilities game: scripted games against every abilities AI, the
// person on either side, print before the end exactly what the public
// events alone print; a planted leak is caught.
func TestAbilitiesSeatPrintsOnlyPublicEvents(t *testing.T) {
	abilitiesSeatPrintsOnlyPublic(t, false)
}

// TestAbilitiesSeatPrintsOnlyPublicEventsFullSize is
// TestAbilitiesSeatPrintsOnlyPublicEvents against the slow AIs
// (slowSeatAIs).
func TestAbilitiesSeatPrintsOnlyPublicEventsFullSize(t *testing.T) {
	race.SkipFullSize(t)
	abilitiesSeatPrintsOnlyPublic(t, true)
}

// abilitiesSeatPrintsOnlyPublic plays the scripted games against the
// abilities AIs that are slow (slowSeatAIs) or, without slow, the others.
func abilitiesSeatPrintsOnlyPublic(t *testing.T, slow bool) {
	hidden, err := abilities.NewRules(battleship.DefaultRules(), abilities.AI, abilities.Humans, abilities.Options{HideMoves: true})
	require.NoError(t, err)
	for k, e := range abplayers.Entries() {
		if slowSeatAIs[e.Name] != slow {
			continue
		}
		t.Run(e.Name, func(t *testing.T) {
			t.Parallel()
			for seat := range 2 {
				r := abilities.DefaultRules()
				if seat == 1 {
					r = hidden
				}
				fac, err := e.Build(r, nil)
				require.NoError(t, err)
				seed := uint64(100*k + seat + 7)
				play := func(leak bool) (string, []byte) {
					var screen, rp bytes.Buffer
					p := newABPerson(seed, r.Sides[seat])
					h := human.NewAbilities(r, seat, bufio.NewReader(&typist{screen: &screen, next: p.next, max: 5000}), &screen, rand.New(rand.NewPCG(seed, 2)))
					var ai abplayers.Player = fac(rand.New(rand.NewPCG(seed, 3)), 1-seat)
					if leak {
						ai = leakyAB{ai, &screen}
					}
					res, err := human.PlayAbilitiesAgainstWith(r, h, ai, seat, human.Options{Replay: &rp, AI: e.Name, Seed: seed})
					require.NoError(t, err)
					require.Empty(t, res.Forfeits[seat].Kind)
					require.False(t, h.EOF(), "the script lasts the game")
					return screen.String(), rp.Bytes()
				}
				played, rp := play(false)
				public := abPublic(t, rp, seed, seat)
				require.NoError(t, publicPrefix(played, public), "seat %d", seat)
				after := played[len(public):]
				require.Contains(t, after, "the enemy fleet: ")
				leaked, _ := play(true)
				require.ErrorContains(t, publicPrefix(leaked, public), "the AI placed at", "a planted leak is caught")
				t.Logf("seat %d: %d lines during play, identical to the public events'", seat, strings.Count(public, "\n"))
			}
		})
	}
}

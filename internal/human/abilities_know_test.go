package human

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/internal/race"
)

// candidates are actions to try at a decision of seat (the test tries a
// random 12 of each kind): every legal one, and many that may not be (special shots, every 1-deck move, salvoes
// everywhere, answers out of turn, reveals of random cells).
func candidates(g *abilities.Game, seat int, rng *rand.Rand) []abilities.Action {
	r := g.Rules()
	b := r.Base.Board
	out := g.Legal()
	for c := range b.Usable().All() {
		out = append(out, abilities.Action{Kind: abilities.Shoot, At: c, Special: true},
			abilities.Action{Kind: abilities.Salvo, At: c, To: c})
		for _, n := range abilities.Neighbours(b, c) {
			out = append(out, abilities.Action{Kind: abilities.Salvo, At: min(c, n), To: max(c, n)})
		}
	}
	for _, s := range g.Ships(seat) {
		for _, n := range abilities.Neighbours(b, s[0]) {
			out = append(out, abilities.Action{Kind: abilities.Move, At: s[0], To: n})
		}
	}
	out = append(out, abilities.Action{Kind: abilities.Defend}, abilities.Action{Kind: abilities.Defend, Use: true})
	if q := g.Pending(); q != nil && q.Ask == abilities.AskReveal {
		cells := q.Cells.Cells()
		for range 4 {
			rng.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
			out = append(out, abilities.Action{Kind: abilities.Reveal, Cells: append([]grid.Cell(nil), cells[:min(len(cells), 1+rng.IntN(4))]...)})
		}
		out = append(out, abilities.Action{Kind: abilities.Reveal, Cells: []grid.Cell{cells[0], cells[0], cells[1]}})
	}
	return out
}

// TestAbilitiesSeatKnowsWhatIsLegalFullSize plays random games of every pairing
// of sides under several options, keeping each seat's abKnow from what
// the rules tell that seat only; at every decision the seat's check must
// accept exactly the actions the rules accept. A seat that refused a
// legal action would stop the person playing it; one that accepted an
// illegal action would send a forfeit.
func TestAbilitiesSeatKnowsWhatIsLegalFullSize(t *testing.T) {
	race.SkipFullSize(t)
	base := battleship.DefaultRules()
	placer, err := bsbelief.NewUniformPlacer(base)
	require.NoError(t, err)
	opts := []abilities.Options{{}, {MoveMayTouch: true, HideMoves: true}, {SuppressPassive: true, SalvoShootsAgain: true, FalseMissAnyHit: true, ScanAfloatOnly: true}}
	sides := [][2]abilities.Side{{abilities.AI, abilities.Humans}, {abilities.Humans, abilities.AI}, {abilities.AI, abilities.AI}, {abilities.Humans, abilities.Humans}}
	decisions := 0
	for oi, opt := range opts {
		for si, sd := range sides {
			r, err := abilities.NewRules(base, sd[0], sd[1], opt)
			require.NoError(t, err)
			for gi := range 2 {
				rng := rand.New(rand.NewPCG(uint64(oi), uint64(10*si+gi)))
				var pl [2]battleship.Placement
				var know [2]*abKnow
				for s := range 2 {
					pl[s], err = placer.Place(rng)
					require.NoError(t, err)
					know[s] = newABKnow(r, s)
					know[s].place(pl[s])
				}
				g, err := r.Start(pl, gi%2)
				require.NoError(t, err)
				var told abilities.Told
				var pending [2]*abilities.Question
				for n := 0; g.Status() == game.Running; n++ {
					require.Less(t, n, 5000)
					seat := g.ToAct()
					q := pending[seat]
					if gq := g.Pending(); gq != nil {
						require.Equal(t, gq, q, "the question pending for seat %d is the one it was told", seat)
					} else {
						require.Nil(t, q)
					}
					cands := candidates(g, seat, rng)
					rng.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
					var perKind [abilities.Defend + 1]int
					for _, a := range cands {
						if perKind[a.Kind]++; perKind[a.Kind] > 12 {
							continue
						}
						_, rerr := g.Clone().Apply(a)
						kerr := know[seat].check(a, q)
						require.Equal(t, rerr == nil, kerr == nil, "opt %d sides %v game %d action %d: seat %d %v: rules %v, seat %v", oi, sd, gi, n, seat, a, rerr, kerr)
						decisions++
					}
					legal := g.Legal()
					a := legal[rng.IntN(len(legal))]
					know[seat].acted(a, q)
					pending[seat] = nil
					st, err := g.Apply(a)
					require.NoError(t, err)
					for s := range 2 {
						if r.Tell(g, &st, nil, s, &told) {
							know[s].observe(told.Event)
							if told.Pending != nil {
								pending[s] = told.Pending
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d candidate actions checked against the rules", decisions)
}

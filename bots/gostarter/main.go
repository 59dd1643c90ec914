// Command gostarter is a starter bot for the submarine game written on
// Kaisen's client library: the library speaks the protocol (both dialects,
// series, timeouts), and the bot is a players.Player of a few lines, the
// same interface the built-in AIs implement, so it also plays in-process
// (kaisen match could host it once registered).
//
//	go run ./bots/gostarter -addr 127.0.0.1:2000
//	go run ./bots/gostarter -addr 127.0.0.1:8000 -name tanaka   (a submarine-py server)
//
// Its play is deliberately simple, as the Python starters' (bots/python):
// it remembers where the enemy was last heard of and attacks the most
// suspected cell in reach. docs/bots.md says how to make it strong and how
// to measure it.
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/signal"
	"time"

	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players"
)

// starter is the bot: its rules (the server's board), its random source,
// what it knows of its own fleet, and how strongly it suspects an enemy
// ship on each cell.
type starter struct {
	rules   *submarine.Rules
	rng     *rand.Rand
	me      submarine.Fleet
	suspect map[grid.Cell]float64
}

// Place puts the ships on distinct random usable cells.
func (s *starter) Place() submarine.Placement {
	cells := s.rules.Board.Usable().Cells()
	s.rng.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
	p := submarine.Placement(cells[:len(s.rules.Fleet)])
	s.me = submarine.NewFleet(s.rules, p)
	return p
}

// Act attacks the most suspected cell within reach, never one of its own
// ships' cells when another is in reach (ties broken at random).
func (s *starter) Act() submarine.Action {
	reach := s.rules.Reach(&s.me)
	if other := reach.AndNot(s.me.Occupied); !other.Empty() {
		reach = other
	}
	best, bestScore := grid.None, -1e9
	for c := range reach.All() {
		if score := s.suspect[c] + s.rng.Float64()*1e-3; score > bestScore {
			best, bestScore = c, score
		}
	}
	return submarine.AttackAt(best)
}

// Observe keeps the own fleet up to date and the suspicions: a hit or a
// splash around its own attack, and the cells around the enemy's attack
// (an enemy ship is within one of them). Suspicion fades: ships move.
func (s *starter) Observe(ev submarine.Event, v *submarine.View) {
	s.me = v.Me
	for c, x := range s.suspect {
		s.suspect[c] = 0.8 * x
	}
	if ev.Kind != submarine.Attack || ev.Illegal {
		return
	}
	b := s.rules.Board
	if !ev.Mine {
		for c := range b.Around(ev.At).All() {
			s.suspect[c] += 0.4
		}
		return
	}
	if ev.Hit != submarine.NoShip {
		s.suspect[ev.At] += 3
	} else {
		s.suspect[ev.At] = 0
	}
	near := -0.5
	if ev.Near != 0 {
		near = 0.5
	}
	for c := range b.Around(ev.At).All() {
		if c != ev.At {
			s.suspect[c] += near
		}
	}
}

func main() {
	addr := flag.String("addr", "127.0.0.1:2000", "server address host:port")
	name := flag.String("name", "gostarter", "name sent to submarine-py servers")
	seed := flag.Uint64("seed", uint64(time.Now().UnixNano()), "seed of the bot's random choices")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *addr, *name, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "gostarter:", err)
		os.Exit(1)
	}
}

// run plays every game the server at addr offers on one connection.
func run(ctx context.Context, addr, name string, seed uint64) error {
	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	build := func(r *submarine.Rules) (players.Factory, error) {
		return func(rng *rand.Rand) players.Player {
			return &starter{rules: r, rng: rng, suspect: map[grid.Cell]float64{}}
		}, nil
	}
	rngFor := func(game int) *rand.Rand { return rand.New(rand.NewPCG(seed, uint64(game))) }
	res, err := client.PlaySubmarine(ctx, conn, build, rngFor, client.SubmarinePlayOptions{Name: name})
	for _, g := range res.Games {
		fmt.Println(g.Line)
	}
	return err
}

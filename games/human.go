package games

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/internal/human"
	"github.com/kaisen-ai/kaisen/internal/roster"
	"github.com/kaisen-ai/kaisen/protocol"
	"github.com/kaisen-ai/kaisen/series"
)

// HumanClientOptions are the settings of the network human seat
// (kaisen play --human --addr, Game.HumanClient).
type HumanClientOptions struct {
	// Name is sent to servers that ask for one.
	Name string
	// Typist, when set, names an AI of the game that types the person's
	// lines instead of in, as HumanOptions.Typist (a scripted seat, for
	// the tests): game k's typist draws from the person's stream of game
	// k (PlayOptions.Seed).
	Typist string
}

// humanSeries plays games games in-process between a person and an AI
// (kaisen play --human --against). Game k's AI draws from PCG(seed, 2k+1)
// and the person's seat (its random placement) from PCG(seed, 2k); the
// person acts first in even games (k from 0) and second in odd ones
// (seats says, for game k, the person's seat and the seat acting first).
// With more than one game it is a series: an AI that learns across games
// (game.Learner) is made once, started anew with NewGame on each later
// game's stream and told each game's end, as on a server; another AI is
// made anew for every game. play plays one game with the AI, the
// person's stream and seats and returns the winning seat (-1 on a draw)
// and why the series stops after it ("" = it goes on: the person's input
// has not ended). A series ends with the person's tally.
func humanSeries[P, A, O any](out io.Writer, against string, seed uint64, games int, fresh game.Factory[P, A, O], seats func(k int) (seat, first int), play func(ai game.Player[P, A, O], me *rand.Rand, seat, first int) (int, string)) {
	games = max(games, 1)
	var (
		kept  game.Player[P, A, O]
		learn game.Learner
		tally protocol.Tally
	)
	played := games
	for k := range games {
		aiRNG, me := rand.New(rand.NewPCG(seed, uint64(2*k+1))), rand.New(rand.NewPCG(seed, uint64(2*k)))
		seat, first := seats(k)
		var ai game.Player[P, A, O]
		if learn != nil {
			learn.NewGame(aiRNG)
			ai = kept
		} else if ai = fresh(aiRNG, 1-seat); games > 1 {
			if learn, _ = game.As[game.Learner](ai); learn != nil {
				kept = ai
			}
		}
		if games > 1 {
			fmt.Fprintf(out, "\n== game %d of %d\n", k+1, games)
		}
		winner, stop := play(ai, me, seat, first)
		switch winner {
		case seat:
			tally.Win++
		case -1:
			tally.Even++
		default:
			tally.Lose++
		}
		if learn != nil {
			learn.EndGame(series.End{Game: k, Seat: 1 - seat, First: first, Winner: winner})
		}
		if stop != "" && k+1 < games {
			played = k + 1
			fmt.Fprintf(out, "\nthe series stops after game %d of %d: %s\n", played, games, stop)
			break
		}
	}
	if games > 1 {
		fmt.Fprintf(out, "\nyou against %s, %d games: won %d, drew %d, lost %d\n", against, played, tally.Win, tally.Even, tally.Lose)
	}
}

// humanGame is one game's part of kaisen play --human --against: its
// local loop, the AI, the person's seat, and who plays where.
type humanGame[G game.State[A, S], P, A, S, O any] struct {
	name  string // the game's name, for the replay files
	sides bool   // the game has sides (HumanOptions.Side)
	local *human.Local[G, P, A, S, O]
	// text makes the person's Text for seat, writing to out; me draws
	// its random placements.
	text func(out io.Writer, me *rand.Rand, seat int) human.Text[P, A, O]
	// build makes an AI of the game by name with the settings load
	// overlays (nil: its built-in ones): the AI played against
	// (HumanOptions.Against, Load) and the typist of HumanOptions.Typist.
	build func(name string, load roster.Loader) (game.Factory[P, A, O], error)
	// seats are the person's seat and the seat acting first in game k
	// (nil: seat k%2, seat 0 first).
	seats func(k int) (seat, first int)
	// intro says who plays where ("you (seat 0, acting first) against X").
	intro func(seat, first int, against string) string
}

// humanLocal is Game.HumanLocal on g: the series, each game through
// human.Play, the replays kept until the series is over.
func humanLocal[G game.State[A, S], P, A, S, O any](in *bufio.Reader, out io.Writer, opt HumanOptions, g humanGame[G, P, A, S, O]) error {
	ai, err := g.build(opt.Against, opt.Load)
	if err != nil {
		return err
	}
	if opt.Side != "" && !g.sides {
		return fmt.Errorf("--side %s: the %s game has no sides", opt.Side, g.name)
	}
	saved := &humanReplays{out: out, opt: opt, game: g.name}
	seats := g.seats
	if seats == nil {
		seats = func(k int) (int, int) { return k % 2, 0 }
	}
	if opt.Replays != "" && g.local.Record == nil {
		return fmt.Errorf("--replays: %w: the %s game writes no replays", ErrNoHost, g.name)
	}
	var typist game.Factory[P, A, O]
	if opt.Typist != "" {
		if typist, err = g.build(opt.Typist, nil); err != nil {
			return fmt.Errorf("typist: %w", err)
		}
	}
	var werr error
	humanSeries(out, opt.Against, opt.Seed, opt.Games, ai, seats, func(ai game.Player[P, A, O], me *rand.Rand, seat, first int) (int, string) {
		fmt.Fprintln(out, g.intro(seat, first, opt.Against))
		person := seatPerson(func(me *rand.Rand) human.Text[P, A, O] { return g.text(out, me, seat) }, typist, me, seat, in, out)
		res, err := human.Play(g.local, person, ai, seat, first, saved.options())
		werr = errors.Join(werr, saved.done(err))
		switch {
		case person.Resigned():
			return res.Winner, "you resigned"
		case person.EOF():
			return res.Winner, "your input ended"
		}
		return res.Winner, ""
	})
	if werr != nil {
		return werr
	}
	return saved.finish()
}

// seatPerson is the person in seat of a game, whose Text text makes
// from the person's stream me: reading in, or, when typist is set, the
// typist's lines (human.NewTypist; the typist draws from a stream seeded
// by me before text does).
func seatPerson[P, A, O any](text func(me *rand.Rand) human.Text[P, A, O], typist game.Factory[P, A, O], me *rand.Rand, seat int, in *bufio.Reader, out io.Writer) *human.Person[P, A, O] {
	if typist == nil {
		return human.NewPerson(text(me), in, out)
	}
	types := typist(rand.New(rand.NewPCG(me.Uint64(), me.Uint64())), seat)
	return human.NewTypist(text(me), types, out)
}

// HumanOptions are the settings of kaisen play --human --against
// (Game.HumanLocal).
type HumanOptions struct {
	Against string        // the built-in AI
	Load    roster.Loader // its settings file (nil = its built-in defaults)
	Seed    uint64        // seeds the AI and the person's random placements (humanSeries)
	// SeedDrawn: Seed was drawn at random, not given; it is printed when
	// the games are over (a seed known during play tells the AI's fleet).
	SeedDrawn bool
	Games     int // games in a row (a series when more than one)
	// Side is the side the person plays in a game with sides (abilities:
	// "ai" or "humans"; "" = the game's default); a game without sides
	// refuses any.
	Side   string
	Reveal bool // the AI's reasons during play too (kaisen play --reveal-ai): it reveals the AI's fleet
	// Replays is the directory where each game's replay, with the AI's
	// reasons, is written when the games are over ("" = none).
	Replays string
	// Typist, when set, names an AI of the game that types the person's
	// lines instead of in (a scripted seat, for the tests): it is told
	// what the seat is told and types its placement and actions through
	// the game's Text (human.NewTypist).
	Typist string
}

// ErrHumanReplay is wrapped by HumanLocal's errors when a game's replay
// cannot be written (the other errors are the user's: an unknown AI, bad
// settings).
var ErrHumanReplay = errors.New("games: replay of a human game")

// humanReplays keeps the replays of kaisen play --human --against's games
// until the series is over: a replay records the seed, which would give
// away the AI's fleets in the later games of the series.
type humanReplays struct {
	out   io.Writer
	opt   HumanOptions
	game  string
	games [][]byte
	buf   bytes.Buffer
}

// options returns the seat's Options for the next game (k from 0): the
// replay goes to a buffer.
func (h *humanReplays) options() human.Options {
	h.buf.Reset()
	o := human.Options{Reveal: h.opt.Reveal, Seed: h.opt.Seed, AI: h.opt.Against}
	if h.opt.Replays != "" {
		o.Replay = &h.buf
	}
	return o
}

// done keeps the game's replay (err is its write error) and says when it
// will be written.
func (h *humanReplays) done(err error) error {
	if h.opt.Replays == "" {
		return err
	}
	if err != nil {
		return fmt.Errorf("%w %d: %w", ErrHumanReplay, len(h.games)+1, err)
	}
	h.games = append(h.games, bytes.Clone(h.buf.Bytes()))
	if max(h.opt.Games, 1) > len(h.games) {
		fmt.Fprintln(h.out, "(this game's replay, with the AI's reasons, is written when the series is over: it records the seed, which tells the AI's next fleets)")
	}
	return nil
}

// finish writes the replays and names them, and prints a drawn seed.
func (h *humanReplays) finish() error {
	for k, data := range h.games {
		name := fmt.Sprintf("%s-%s-seed%d", h.game, h.opt.Against, h.opt.Seed)
		if len(h.games) > 1 {
			name += fmt.Sprintf("-game%d", k+1)
		}
		path, err := human.SaveReplay(h.opt.Replays, name, data)
		if err != nil {
			return fmt.Errorf("%w: %w", ErrHumanReplay, err)
		}
		fmt.Fprintf(h.out, "replay with the AI's reasons: %s (kaisen replay %s; --html PAGE.html for a web page)\n", path, path)
	}
	if h.opt.SeedDrawn {
		fmt.Fprintf(h.out, "seed %d (drawn at random; add --seed %d to meet the same AI again)\n", h.opt.Seed, h.opt.Seed)
	}
	return nil
}

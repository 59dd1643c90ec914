package games

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"slices"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	abrecord "github.com/kaisen-ai/kaisen/game/abilities/record"
	abwire "github.com/kaisen-ai/kaisen/game/abilities/wire"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/internal/human"
	abplayers "github.com/kaisen-ai/kaisen/players/abilities"
	"github.com/kaisen-ai/kaisen/replay"
)

// abRoster lists, checks and builds the game's AIs.
var abRoster = aiRoster[*abilities.Rules, abplayers.Factory]{abplayers.Entries, abplayers.Lookup, abplayers.New}

// abilitiesGame is the abilities variant of Battleship: rules in
// game/abilities, AIs in players/abilities, replays by
// abrecord.Writer, wire codec in game/abilities/wire (the
// server's abilities listeners, client.PlayAbilities), the terminal seat
// in internal/human (abilities.go).
var abilitiesGame = Game{
	Name:           abilities.Name,
	Summary:        "Battleship with ship abilities (AI vs Humans sides): moving 1-decks, salvoes, counts or suppression, false miss or air defence",
	Players:        abRoster.players,
	CheckPlayer:    abRoster.check,
	DefaultPlayers: [2]string{"ab-density", "ab-random"},
	Family: abRoster.family(abilitiesRules,
		func(cfg arena.Config, r *abilities.Rules, p1, p2 Entrant, f1, f2 abplayers.Factory) arena.Family {
			return &arena.Abilities{Rules: r, AlternateFirst: cfg.Abilities.AlternateFirst,
				P1: arena.AbilitiesEntrant{Name: p1.Name, Factory: f1},
				P2: arena.AbilitiesEntrant{Name: p2.Name, Factory: f2}}
		}),
	OpenReplay:       openReplay(abrecord.ReadFile, func(rp *abrecord.Replay) Replay { return abilitiesReplay{rp} }),
	PlayDefault:      "ab-density",
	ErrUnknownPlayer: abplayers.ErrUnknownPlayer,
	Shots:            true,
	Tools:            []Tool{ToolTournament, ToolLoadtest},
	NewClient:        newAbilitiesClient,
	Conformance:      abilitiesChecks,
	HumanClient: func(_ string, in *bufio.Reader, out io.Writer) Client {
		return &abilitiesClient{person: func(r *abilities.Rules, seat int, me *rand.Rand) abplayers.Player {
			return human.NewAbilities(r, seat, in, out, me)
		}}
	},
	HumanLocal: abilitiesHuman,
}

// abilitiesHuman is the abilities game's kaisen play --human --against:
// the default rules (seat 0 the AI side, seat 1 the Humans side), the
// person in the seat of opt.Side (default the AI side), acting first in
// the odd games of a series and second in the even ones.
func abilitiesHuman(in *bufio.Reader, out io.Writer, opt HumanOptions) error {
	r := abilities.DefaultRules()
	seat := 0
	if opt.Side != "" {
		side, err := abilities.ParseSide(opt.Side)
		if err != nil {
			return fmt.Errorf("--side: %w", err)
		}
		seat = slices.Index(r.Sides[:], side)
	}
	return humanLocal(in, out, opt, humanGame[*abilities.Game, battleship.Placement, abilities.Action, abilities.Step, abilities.Told]{
		name:  abilities.Name,
		sides: true,
		local: human.AbilitiesLocal(r),
		text: func(out io.Writer, me *rand.Rand, seat int) human.Text[battleship.Placement, abilities.Action, abilities.Told] {
			return human.AbilitiesText(r, seat, out, me)
		},
		build: builder(abRoster, r, abplayers.Adapt),
		seats: func(k int) (int, int) {
			if k%2 == 1 {
				return seat, 1 - seat
			}
			return seat, seat
		},
		intro: func(seat, first int, against string) string {
			order := "first"
			if first != seat {
				order = "second"
			}
			side := "AI"
			if r.Sides[seat] == abilities.Humans {
				side = "Humans"
			}
			return fmt.Sprintf("you (the %s side, acting %s) against %s", side, order, against)
		},
	})
}

// abilitiesRules are the abilities rules of a match config: its
// abilities section on its battleship board and fleet.
func abilitiesRules(cfg arena.Config) (*abilities.Rules, error) {
	base, err := cfg.Battleship.Build()
	if err != nil {
		return nil, err
	}
	return cfg.Abilities.Build(base)
}

// abilitiesClient plays the abilities protocol with person's players (the
// human seat's, kaisen play --human): one game per connection, on the
// sides and options the server's hello names.
type abilitiesClient struct {
	person func(r *abilities.Rules, seat int, me *rand.Rand) abplayers.Player
}

func (c *abilitiesClient) Play(ctx context.Context, conn net.Conn, first int, opt PlayOptions) (int, error) {
	nc := netClient[*abilities.Rules, battleship.Placement, abilities.Action, abilities.Told]{
		name: abilities.Name, wording: client.WordOneGame, codec: abilitiesCodec,
		build: func(r *abilities.Rules) (game.Factory[battleship.Placement, abilities.Action, abilities.Told], error) {
			return abplayers.Adapt(func(me *rand.Rand, seat int) abplayers.Player { return c.person(r, seat, me) }), nil
		}}
	return nc.Play(ctx, conn, first, opt)
}

// abilitiesCodec makes the codec of each connection, on the classic board
// and fleet.
func abilitiesCodec() game.ClientCodec[*abilities.Rules, battleship.Placement, abilities.Action, abilities.Told] {
	return abwire.NewClient(battleship.DefaultRules())
}

// newAbilitiesClient is the game's NewClient: one game per connection, on
// the sides and options the server's hello names.
var newAbilitiesClient = clientHook(abilities.Name, client.WordOneGame, abilities.DefaultRules, abRoster, abplayers.Adapt,
	func(ClientOptions) (func() game.ClientCodec[*abilities.Rules, battleship.Placement, abilities.Action, abilities.Told], error) {
		return abilitiesCodec, nil
	})

type abilitiesReplay struct{ rp *abrecord.Replay }

func (a abilitiesReplay) Verify() error { return abrecord.Verify(a.rp) }

func (a abilitiesReplay) Summary() string {
	res := a.rp.Result
	return fmt.Sprintf("%d actions (%d cells fired at by seat 0, %d by seat 1), %s", len(a.rp.Actions), res.Shots[0], res.Shots[1], winner(res.Outcome, res.Winner, a.rp.Header.Players))
}

func (a abilitiesReplay) Moves() int   { return len(a.rp.Actions) }
func (a abilitiesReplay) Move() string { return "action" }

func (a abilitiesReplay) Render(w io.Writer, opt RenderOptions) error {
	return abrecord.Render(w, a.rp, opt.From, opt.To)
}

func (a abilitiesReplay) HTML(w io.Writer) error {
	d, err := abrecord.HTML(a.rp)
	if err != nil {
		return err
	}
	return replay.WriteHTML(w, d)
}

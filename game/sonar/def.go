package sonar

import (
	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game/conformance"
	"github.com/kaisen-ai/kaisen/games"
)

// Def is the game's registry entry (games.Define): its rules (the default
// ones whatever the match config), its AIs, what the conformance suite
// needs (actions always refused, pinned perft counts), and its terminal
// seat (Text, text.go), its wire codec (wire.go, wire_client.go: the
// server serves it and kaisen play plays it) and its public view
// (public.go: the server's spectators see it). It has no replay format
// of its own: its replays are package jsonrecord's, which games.Define
// gives every game without one.
func Def() games.Def[*Rules, *Game, Placement, Action, Step, Told] {
	r := DefaultRules()
	none := []Action(nil)
	two := [2]Placement{{0, 5}, {10, 15}}
	return games.Def[*Rules, *Game, Placement, Action, Step, Told]{
		Name:             Name,
		Summary:          "a test game: hidden boats on a 4x4 sea, pings told hit, near or miss, boats that move unseen",
		Rules:            func(arena.Config) (*Rules, error) { return DefaultRules(), nil },
		AIs:              AIs,
		ErrUnknownPlayer: ErrUnknownPlayer,
		DefaultPlayers:   [2]string{"sonar-hunter", "sonar-random"},
		PlayDefault:      "sonar-random",
		Shots:            true,
		Text:             NewText,
		Wire:             &games.Wire[*Rules, Placement, Action, Told]{Server: NewServerCodec, Client: NewClientCodec},
		House:            "sonar-hunter",
		View:             NewPublicView,
		Illegal:          []Action{{Kind: Ping, At: None}, {Kind: Move, Boat: -1}, {}},
		// Boats on 0 and 5 against 10 and 15: 16 pings and 2 + 4 moves
		// (22); seat 1 then has 22 answers, but 18 after a hit on 10 and 20
		// after a hit on 15 (478 = 20 · 22 + 18 + 20). With one boat each
		// left (on 5 and 15), 16 pings + 4 moves, then 19 · (16 + 2): the
		// ping at 15 ends the game.
		Perft: []conformance.Perft[*Rules, Placement, Action]{
			{Name: "start", Rules: r, Placements: two, Script: none, Counts: []int{22, 478, 10224}},
			{Name: "one boat each left", Rules: r, Placements: two, Script: []Action{{Kind: Ping, At: 10}, {Kind: Ping, At: 0}}, Counts: []int{20, 342, 6426}},
		},
	}
}

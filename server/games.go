package server

import (
	"context"
	"slices"
)

// listenerGame is how the server serves one game: the house AI of its
// listeners without an opponent, the step that validates a listener and
// builds its setup, and the play step of one pairing.
type listenerGame struct {
	name    string
	house   string // the opponent when unset ("" = the config default: pair clients)
	compile func(l ListenerConfig) (*setup, error)
	play    func(m *match) func(ctx context.Context, k int) (*Result, []byte)
}

// listenerGames are the games a listener can serve (ListenerConfig.Game);
// the games registry (package games) checks that it serves all of its games.
var listenerGames = []listenerGame{
	{name: GameSubmarine, compile: ListenerConfig.compileSubmarine,
		play: func(m *match) func(context.Context, int) (*Result, []byte) { return newSubTurns(m).play }},
	{name: GameBattleship, house: DefaultBattleshipHouse, compile: ListenerConfig.compileBattleship,
		play: func(m *match) func(context.Context, int) (*Result, []byte) { return newBSTurns(m).play }},
	{name: GameAbilities, house: DefaultAbilitiesHouse, compile: ListenerConfig.compileAbilities,
		play: func(m *match) func(context.Context, int) (*Result, []byte) { return newABTurns(m).play }},
}

// Games lists the games a listener can serve.
func Games() []string {
	names := make([]string, len(listenerGames))
	for i, g := range listenerGames {
		names[i] = g.name
	}
	return names
}

// listenerGameOf is the game called name ("" = the submarine game).
func listenerGameOf(name string) (listenerGame, bool) {
	if name == "" {
		name = GameSubmarine
	}
	i := slices.IndexFunc(listenerGames, func(g listenerGame) bool { return g.name == name })
	if i < 0 {
		return listenerGame{}, false
	}
	return listenerGames[i], true
}

// DefaultHouse is the house AI a listener of game plays when its opponent
// is not set ("" = none: pair clients, or an unknown game).
func DefaultHouse(game string) string {
	g, _ := listenerGameOf(game)
	return g.house
}

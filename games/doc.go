// Package games is the list of games Kaisen plays — the submarine game
// (潜水艦ゲーム) and classic Battleship — and what each host needs to run
// one: its name (the --game value, a replay header's "game", a server
// listener's game), its built-in AIs, the arena family of a match and the
// reader of its replays. The commands of kaisen dispatch on it instead of
// switching on game names, so a new game is its own packages (rules under
// game/, players, its arena family and replay format) plus one entry in
// All.
//
// Lookup refuses an unknown name with an error that lists the games.
package games

// Package hygiene tests that hidden stays hidden: two games that differ
// only in what a seat was never told must show that seat, and every
// spectator, byte-identical output on every channel.
//
// A Twin is such a pair. The generators (SubmarineTwin, BattleshipTwin,
// AbilitiesTwin) play a random game from a seeded source, cut it at a
// random action, and search for a second game in which the seat's opponent
// had another fleet (and, in the abilities variant, made other hidden
// 1-deck moves or still holds an unspent false miss) such that everything
// the rules told the seat is the same, action for action; the opponent
// replays the same actions as the seat saw them (an attack at the same
// cell, a move of the same ship by the same displacement). Both games end
// the same way: the seat to act after the cut resigns with an illegal
// action.
//
// The hosts run each game of a twin and capture, normalised (Normalize),
// what the seat and a spectator get:
//
//   - RunServer: kaisen serve (package server) in-process with a pair
//     listener and two scripted TCP clients: the wire lines the seat
//     receives (ChannelWire), the info-level log records (ChannelLog), and
//     the web spectator (internal/web) fed by the server: the list page and
//     the live page fetched while the game runs and the list page once it
//     shows the game over (ChannelPages), and the whole server-sent event
//     stream of the game (ChannelSSE);
//   - RunTerminal: the terminal seat (internal/human) playing the seat with
//     typed commands against the scripted opponent in-process, as kaisen
//     play --human --against does (ChannelTerminal), up to the end of the
//     game (after it the seat is shown the opponent's fleet by design).
//
// Replays are not compared: they show the fleets after the game by design.
//
// Compare reports every channel on which the two captures differ, with
// the first differing lines. A future per-game conformance suite calls the
// same helpers for every registered game.
package hygiene

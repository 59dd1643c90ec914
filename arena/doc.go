// Package arena plays AI-vs-AI matches in-process: many games in parallel,
// reproducible by seed whatever the number of workers, with statistics and
// optional replays.
//
// A Match plays Games games between two players, P1 and P2. P1 sits in seat 0
// in even-numbered games and in seat 1 in odd-numbered ones; seat 0 always
// acts first. Game i gets its own seed, GameSeed(match seed, i), and the
// player in seat s draws every random choice from its own stream
// SeatRand(game seed, s), so a game's course depends on nothing but the match
// seed, its index and the players: not on scheduling, nor on other games.
//
// The game itself is pluggable (Family): Submarine plays the submarine game,
// Game any game on the contract (classic Battleship, whose
// Summary.P1Shots/P2Shots count its shots, and the games package's other
// Defs).
// PlayGame plays a single submarine game, for tournaments and tuners.
//
// A player that panics, places its fleet illegally or makes an illegal
// action forfeits that game; the match goes on.
package arena

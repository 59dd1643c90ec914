// Package players holds the submarine-game AIs and the registry that creates
// them by name.
//
// A Player sees only what a wire client sees: the rules (board and fleet), its
// own fleet, the Event of every action (its own and the enemy's) and the
// enemy's hp. The same player code runs in-process (arena) and behind TCP
// (server house bots and the kaisen play client).
//
// Players are created per game by a Factory, which the registry builds once
// from the player's YAML config; each game gets its own seeded *rand.Rand so
// that a match replays bit for bit.
package players

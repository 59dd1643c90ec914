// Package players holds the submarine-game AIs and the registry that creates
// them by name. admiral and admiral-series live in players/admiral, which
// registers them here (Register) in the places the registry keeps for them;
// the joint chart joint-greedy and admiral share is players/chart.
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

// Package sonar is a small hidden-information game written for the tests:
// the fourth game of the registry, which proves that a game is a folder.
// Each seat hides a few boats on its own small sea (4x4 by default); on its
// turn a seat pings a cell of the enemy sea and is told hit (the boat
// there sinks), near (an enemy boat afloat on one of the eight cells
// around) or miss, or moves one of its boats to a free orthogonal
// neighbour, which the enemy is told happened but not which boat nor
// where. The first to sink every enemy boat wins; the game is drawn after
// DrawLimit actions.
//
// The folder holds the rules (rules.go, implementing game.Rules and
// game.Legal), two AIs (ai.go: sonar-random, and sonar-hunter, which
// explains its pings and learns across a series where the enemy hides),
// its terminal seat (text.go: NewText, the Def's Text, which gives it
// kaisen play --human --against and the typed round trip of the
// conformance suite), its wire codec (wire.go: line-delimited JSON on the
// classic framing, ServerCodec and ClientCodec, which give it the turn
// server and kaisen play), its public view (public.go: the server's live
// spectators) and the game's registry entry (def.go: Def,
// registered in one line with games.Register(games.Define(sonar.Def()))).
// Nothing outside the folder names it but that line.
package sonar

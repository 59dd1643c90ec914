// Package conformance is the suite every game of the registry must pass:
// checks written once against the game contract (package game) and run on
// each game's rules and AIs. A game gives a Subject (its rules, its AIs,
// actions its rules always refuse, pinned perft counts); Checks returns the
// named checks of the subject, each taking a T (any testing.TB), so that a
// test runs them as subtests:
//
//	for _, c := range conformance.Checks(subject) {
//		t.Run(c.Name, func(t *testing.T) { c.Run(t) })
//	}
//
// The registry (package games) builds every game's checks from its Def and
// keeps them in games.Game.Conformance, and the matrix test runs them on
// every registered game (games/matrix: TestConformanceFullSize).
//
// The checks:
//
//   - rules: the settings validate and the rules list their moves
//     (game.Legal);
//   - random-play: every AI plays the subject's opponent through
//     game.Table, seats swapped, under invariants checked after every
//     action (ToAct in {0, 1}, Status only Running → Won or Drawn, Winner
//     consistent with Status, Tell a pure function of the step that leaves
//     the game as it was, an illegal action ending the game against its
//     actor, Count sane, no built-in AI ever forfeits), and the same seeds
//     twice give the same game, the same too when an AI that is a
//     game.RefObserver is told by value;
//   - legal-moves: random games over Legal: every listed action is
//     accepted, every action of Subject.Illegal refused, a clone is
//     independent, a game ends, a finished game refuses every action; a
//     game.StepInto state writes over the previous step what Apply
//     returns;
//   - illegal-forfeits: an illegal action forfeits its actor;
//   - panic-forfeits: a player that panics in Place, Act or Observe
//     forfeits, and the table plays on;
//   - perft: pinned perft counts;
//   - series: arena series keep a Learner across a series' games and make
//     every other player fresh, and a series of players that do not learn
//     (the opponent against itself) plays the games of a plain match;
//   - explanations: through arena's table, the actor's Decision is recorded
//     when explanations are asked (for AIs that explain) and only then, and
//     asking does not change the game;
//   - hygiene: a seat's actions and explanations depend only on what it was
//     told: two games that differ only in the other seat's hidden placement
//     give the seat the same actions and explanations until what it is told
//     differs;
//   - text: with Subject.Text (a terminal seat's typed text), random
//     legal games in which every placement and every legal action, typed
//     (PlaceLine, Line), reads back as itself (Place, Parse).
//
// Checks that need more than the contract come in Subject.Extra, which
// the registry adds (games.Checks):
//
//   - replay: the round trip and verification of every game's record
//     (recorded games read back, verified, drawn, and refused once cut);
//   - wire: the round trips of every game with a wire codec, in every
//     dialect its Def lists (games.Wire.Dialects), both ways: seeded games
//     played by the real server and client loops over loopback are the
//     same games in-process, every observation the client decodes is
//     what the rules told the seat, every line the client writes decodes
//     on the server to the action chosen.
package conformance

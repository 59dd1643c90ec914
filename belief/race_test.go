//go:build race

package belief_test

// raceEnabled is true when the tests run under the race detector, which makes
// them about ten times slower: the game loops then play fewer games.
const raceEnabled = true

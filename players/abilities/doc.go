// Package abplayers holds the AIs of the abilities variant of Battleship
// (game/abilities): a Player acts when the game asks it to (its turn, or a
// Question it must answer as the defender) and observes every event it is
// told. PlayGame plays one game between two players; the registry (Entries,
// Lookup, New) names the built-in AIs, whose settings are YAML files under
// configs/ (configs/abilities-*.yaml).
package abplayers

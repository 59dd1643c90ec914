// Package chart is the explicit joint belief about one submarine fleet that
// the joint-greedy players (players: hirota, joint-greedy) and admiral
// (players/admiral) keep: the list of every placement of the living ships
// consistent with the public history, each equally likely (the "chart" of
// hirota_player), with its per-cell counts and the expected information of
// an attack's answer.
//
// A placement is packed in a uint64: the cell of ship i in byte i (cells
// are below 256, fleets at most submarine.MaxShips = 8 ships).
package chart

// Package client is the client side of Kaisen's wire protocols, written
// once for every game: Play is one connection loop that reads the
// server's lines, recognises the end lines, the series greetings and the
// trailer (package protocol), and drives a game.Player made by a
// game.Factory (a game.Learner kept across a series) with what the game's
// client codec (a game.ClientCodec, from the game's wire package
// game/<g>/wire) says each line means. It is what `kaisen play` runs, and
// package loadtest drives many of its connections at once.
//
// The functions of one game each are Play with that game's codec and its
// players package's adapter: PlaySubmarine connects one submarine AI
// (package players) to any submarine server — the classic reference
// server, its series fork, a 2025 submarine_py server or Kaisen's own
// (package server) — and plays every game the server offers on that
// connection; PlayBattleship plays one game of the Kaisen Battleship
// protocol with a Battleship AI (package players/battleship),
// PlayBattleshipSeries every game the server offers (one, or a series);
// PlayAbilities one game of the abilities protocol.
package client

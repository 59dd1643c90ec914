// Package client is the client side of Kaisen's wire protocols (each game's
// codec in game/<g>/wire, on package protocol): PlaySubmarine connects one
// submarine AI (package players) to any submarine server — the classic
// reference server, its series fork, a 2025 submarine_py server or Kaisen's
// own (package server) — and plays every game the server offers on that
// connection; PlayBattleship plays one game of the
// Kaisen Battleship protocol with a Battleship AI (package
// players/battleship), PlayBattleshipSeries every game the server offers
// (one, or a series). It is what `kaisen play` runs, and package loadtest
// drives many of its connections at once.
package client

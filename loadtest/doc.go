// Package loadtest is the load generator behind `kaisen loadtest`: many real
// TCP clients play whole games against a server (Kaisen's, package server,
// or any other speaking the same protocol), and the actions per second and
// the action round trip (from sending an action to receiving its result
// line) are measured on the client side. Every game (Options.Game) plays
// with its kaisen play client, the one client loop of package client, so
// every game the server serves has a load test.
package loadtest

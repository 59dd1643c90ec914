//go:build !race

package server

// raceEnabled scales heavy tests down under the race detector.
const raceEnabled = false

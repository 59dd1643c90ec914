//go:build race

package battleship

func init() { raceEnabled = true }

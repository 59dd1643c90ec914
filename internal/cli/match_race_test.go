//go:build race

package cli

func init() { matchRace = true }

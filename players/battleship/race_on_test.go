//go:build race

package bsplayers

func init() { raceEnabled = true }

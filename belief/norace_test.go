//go:build !race

package belief_test

const raceEnabled = false

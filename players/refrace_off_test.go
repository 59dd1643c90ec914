//go:build !race

package players

// refRace is true when the tests run under the race detector (heavy loops
// shrink).
const refRace = false

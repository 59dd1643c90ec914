//go:build !race

package players

// admiralRace shrinks the admiral tests under the race detector.
const admiralRace = false

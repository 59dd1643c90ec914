// Package race tells tests whether they run under the race detector, which
// makes game loops about ten times slower, so heavy tests can play fewer
// games or leave their full-size checks to the CI step built without it.
//
// Enabled is set by a build tag (race.go, norace.go), the one place in the
// module that does so. A test skipped under -race says which CI step runs it
// instead (SkipFullSize); a test never skips silently.
package race

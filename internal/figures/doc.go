// Package figures holds the seeded figures quoted in README.md and docs/ as
// golden files (testdata/*.golden). Its tests re-run each figure's kaisen
// command in-process, compare the deterministic part of the output with the
// golden file byte for byte, and check that every page quoting the figure
// shows the same numbers; a change that moves a figure fails until the
// golden file and the pages move with it, in the same commit:
//
//	go test ./internal/figures -run Golden -update   # rewrite testdata/
//
// then fix the pages the test names. Timing fields (games_per_sec,
// ms_per_move_p99) are left out: they are the only part of an output that
// depends on the machine. The figures run without the race detector, in
// the CI step that runs the full-size checks (see package race).
package figures

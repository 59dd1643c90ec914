// Package report writes command results as self-contained HTML pages: a
// title, a few lines of context and sections drawn from a handful of
// pictures (a coloured cross table, intervals on an axis, a histogram, a
// heatmap), all inline HTML, CSS and SVG with no script and no network, so
// the file opens from disk anywhere. kaisen tournament, shots and count
// write their --html pages with it; the output is deterministic (a function
// of the data only), so it is held by golden files.
package report

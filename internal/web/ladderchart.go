package web

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/kaisen-ai/kaisen/ladder"
)

// The rating chart's size in pixels and its margin for the axis labels.
const (
	chartW, chartH = 600, 180
	chartMargin    = 44
)

// ratingChart is an SVG chart of a bot's rating over its rated games,
// oldest first: the rating before the first game, then after each, with
// the band of 2 RD around it; "" when it has played no game. Each point's
// title says the game and the rating.
func ratingChart(played []ladder.Played) template.HTML {
	if len(played) == 0 {
		return ""
	}
	type point struct {
		label string
		r     ladder.Rating
	}
	pts := []point{{"start", played[0].Before}}
	for _, p := range played {
		pts = append(pts, point{p.Game.ID + ": " + p.Result(), p.After})
	}
	lo, hi := pts[0].r.R, pts[0].r.R
	for _, p := range pts {
		lo, hi = min(lo, p.r.R-2*p.r.RD), max(hi, p.r.R+2*p.r.RD)
	}
	if hi-lo < 1 {
		hi, lo = hi+1, lo-1
	}
	plotW, plotH := float64(chartW-chartMargin-8), float64(chartH-24)
	x := func(i int) float64 { return chartMargin + plotW*float64(i)/float64(max(len(pts)-1, 1)) }
	y := func(v float64) float64 { return 8 + plotH*(hi-v)/(hi-lo) }
	var line, band strings.Builder
	for i, p := range pts {
		fmt.Fprintf(&line, "%.1f,%.1f ", x(i), y(p.r.R))
		fmt.Fprintf(&band, "%.1f,%.1f ", x(i), y(p.r.R+2*p.r.RD))
	}
	for i := len(pts) - 1; i >= 0; i-- {
		fmt.Fprintf(&band, "%.1f,%.1f ", x(i), y(pts[i].r.R-2*pts[i].r.RD))
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg id="chart" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="rating over %d rated games">`,
		chartW, chartH, chartW, chartH, len(played))
	fmt.Fprintf(&b, `<rect x="%d" y="8" width="%.0f" height="%.0f" fill="#fff" stroke="#ddd"/>`, chartMargin, plotW, plotH)
	fmt.Fprintf(&b, `<polygon class="band" points="%s" fill="#bee3f8" fill-opacity=".6"/>`, strings.TrimSpace(band.String()))
	fmt.Fprintf(&b, `<polyline class="rating" points="%s" fill="none" stroke="#2b6cb0" stroke-width="2"/>`, strings.TrimSpace(line.String()))
	for i, p := range pts {
		fmt.Fprintf(&b, `<circle class="game" cx="%.1f" cy="%.1f" r="3" fill="#2b6cb0"><title>%s</title></circle>`,
			x(i), y(p.r.R), template.HTMLEscapeString(fmt.Sprintf("%s: rating %.0f, RD %.0f", p.label, p.r.R, p.r.RD)))
	}
	for _, v := range []float64{hi, lo} {
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" font-size="11" text-anchor="end" fill="#777">%.0f</text>`, chartMargin-4, y(v)+4, v)
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="11" fill="#777">game 0 (start) to %d; the band is 2 RD either side</text>`, chartMargin, chartH-2, len(played))
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) // #nosec: every value is a number or escaped above
}

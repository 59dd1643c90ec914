package gauntlet

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"math"
	"path"

	"github.com/kaisen-ai/kaisen/elo"
	"github.com/kaisen-ai/kaisen/internal/report"
)

// tableTmpl is the report's table of opponents and its list of games.
var tableTmpl = template.Must(template.New("table").Parse(
	`<table class="cross"><tr>{{range .Head}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range $i, $c := .}}{{if eq $i 0}}<th class="row">{{$c}}</th>{{else}}<td>{{$c}}</td>{{end}}{{end}}</tr>
{{end}}</table>`))

// gamesTmpl is the report's list of games, each linked to its replay.
var gamesTmpl = template.Must(template.New("games").Parse(
	`<table class="cross"><tr><th>game</th><th>opponent</th><th>bot's seat</th><th>result</th><th>actions</th><th>reason</th><th>replay</th></tr>
{{range .}}<tr><td>{{.Index}}</td><td>{{.Opponent}}</td><td>{{.Seat}}</td><td>{{.Outcome}}</td><td>{{.Actions}}</td><td>{{.Reason}}</td><td>{{if .Link}}<a href="{{.Link}}">replay</a>{{else}}-{{end}}</td></tr>
{{end}}</table>`))

// WriteHTML writes the result as a self-contained web page: the table,
// the Elo differences with their 95% intervals as a chart, and the games,
// each linked to its replay at base/Game.Replay (base: the replay
// directory's path relative to the page, with slashes).
func (res *Result) WriteHTML(w io.Writer, base string) error {
	head := []string{"opponent", "games", "W", "D", "L", "score", "Elo", "95% interval", "LOS", "draws", "forfeits", "actions"}
	var rows [][]string
	var iv []report.Interval
	for _, o := range append(append([]Opponent{}, res.Opponents...), res.Overall) {
		e := o.Estimate
		rows = append(rows, []string{o.Name, fmt.Sprint(o.WDL.Games()), fmt.Sprint(o.WDL.Wins), fmt.Sprint(o.WDL.Draws),
			fmt.Sprint(o.WDL.Losses), fmt.Sprintf("%.3f", o.WDL.Score()), eloText(e), interval(e), fmt.Sprintf("%.1f%%", 100*e.LOS),
			fmt.Sprintf("%.1f%%", 100*o.WDL.DrawRatio()), fmt.Sprint(o.Forfeits), fmt.Sprintf("%.1f", o.MeanActions())})
		if o.WDL.Games() > 0 {
			iv = append(iv, chartRow(o.Name, e.Elo, e.Lo, e.Hi))
		}
	}
	type link struct {
		Game
		Link string
	}
	var games []link
	for _, g := range res.List {
		l := link{Game: g}
		if g.Replay != "" {
			l.Link = path.Join(base, g.Replay)
		}
		games = append(games, l)
	}
	var table, list bytes.Buffer
	if err := tableTmpl.Execute(&table, map[string]any{"Head": head, "Rows": rows}); err != nil {
		return fmt.Errorf("gauntlet: %w", err)
	}
	if err := gamesTmpl.Execute(&list, games); err != nil {
		return fmt.Errorf("gauntlet: %w", err)
	}
	p := report.Page{
		Title: fmt.Sprintf("Gauntlet: %s against %d opponents (%s)", res.Bot, len(res.Pool), res.Game),
		Lines: []string{
			fmt.Sprintf("%d games per opponent in pairs (one deal, seats swapped), seed %d (kaisen gauntlet --seed %d)", res.Games, res.Seed, res.Seed),
			fmt.Sprintf("Score of %s vs the pool: %d - %d - %d [%.3f] %d; Elo difference %s, LOS %.1f %%",
				res.Bot, res.Overall.WDL.Wins, res.Overall.WDL.Losses, res.Overall.WDL.Draws, res.Overall.WDL.Score(),
				res.Overall.WDL.Games(), eloText(res.Overall.Estimate), 100*res.Overall.Estimate.LOS),
		},
		Sections: []report.Section{
			{Heading: "Results", Body: template.HTML(table.String()), //nolint:gosec // built by html/template: escaped
				Notes: []string{"From the bot's point of view: W-D-L its wins, draws and losses; Elo its difference against the opponent (> 0: the bot is stronger) with the 95% interval of its pairs (pentanomial); LOS the likelihood that it is stronger."}},
			{Heading: "Elo difference", Body: report.Intervals(iv, "Elo difference of the bot (95% interval)"),
				Notes: []string{fmt.Sprintf("A perfect score has an unbounded side: its dot is on the bound the games give, its bar runs %d Elo past it.", unboundedBar)}},
			{Heading: "Games", Body: template.HTML(list.String())}, //nolint:gosec // built by html/template: escaped
		},
	}
	if !res.Complete {
		p.Lines = append(p.Lines, "stopped early: the table covers the games played so far")
	}
	return report.Write(w, p)
}

// unboundedBar is how far past its bound the bar of an unbounded side
// (a perfect score) is drawn, in Elo.
const unboundedBar = 400

// chartRow is one row of the Elo chart. An infinite value (a perfect
// score) is drawn on the bound the games give, its unbounded side as a
// bar unboundedBar long past it.
func chartRow(name string, value, lo, hi float64) report.Interval {
	label := fmt.Sprintf("%s [%s, %s]", elo.Format(value, "%+.0f"), elo.Format(lo, "%+.0f"), elo.Format(hi, "%+.0f"))
	switch {
	case math.IsInf(value, 1):
		value = lo
	case math.IsInf(value, -1):
		value = hi
	}
	if math.IsInf(lo, 0) {
		lo = min(value, hi) - unboundedBar
	}
	if math.IsInf(hi, 0) {
		hi = max(value, lo) + unboundedBar
	}
	return report.Interval{Name: name, Value: value, Lo: lo, Hi: hi, Label: label}
}

package report

import (
	"fmt"
	"html/template"
	"math"
	"slices"
)

// Cross is one cell of a cross table: the row player's Score against the
// column player (0 to 1), and what to print under it.
type Cross struct {
	Score float64
	Text  string // e.g. "12-3-5" (wins-draws-losses)
	OK    bool   // false: no games (an empty cell)
}

var crossTmpl = template.Must(template.New("cross").Parse(`<table class="cross">
<tr><th></th>{{range .Names}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr><th class="row">{{.Name}}</th>{{range .Cells}}{{if .Self}}<td class="self">–</td>{{else if .OK}}<td style="background: {{.Colour}}">{{.Pct}}<small>{{.Text}}</small></td>{{else}}<td></td>{{end}}{{end}}</tr>
{{end}}</table>`))

// CrossTable draws a cross table of names (rows and columns in this order):
// cell(a, b) is row player a against column player b, coloured from red
// (0) through white (1/2) to green (1).
func CrossTable(names []string, cell func(a, b string) Cross) template.HTML {
	type td struct {
		Self, OK  bool
		Pct, Text string
		Colour    template.CSS
	}
	type tr struct {
		Name  string
		Cells []td
	}
	var rows []tr
	for _, a := range names {
		r := tr{Name: a}
		for _, b := range names {
			if a == b {
				r.Cells = append(r.Cells, td{Self: true})
				continue
			}
			c := cell(a, b)
			r.Cells = append(r.Cells, td{OK: c.OK, Pct: fmt.Sprintf("%.1f%%", 100*c.Score), Text: c.Text, Colour: scoreColour(c.Score)})
		}
		rows = append(rows, r)
	}
	return render(crossTmpl, map[string]any{"Names": names, "Rows": rows})
}

// Interval is one row of an intervals chart: a value and its interval.
type Interval struct {
	Name          string
	Value, Lo, Hi float64
	Label         string // printed right of the row, e.g. "+35 [+10, +60]"
}

var intervalsTmpl = template.Must(template.New("intervals").Parse(
	`<svg xmlns="http://www.w3.org/2000/svg" width="{{.W}}" height="{{.H}}" viewBox="0 0 {{.W}} {{.H}}" role="img" aria-label="{{.Title}}">
{{range .Ticks}}<line class="grid" x1="{{.X}}" y1="10" x2="{{.X}}" y2="{{$.AxisY}}"/><text x="{{.X}}" y="{{$.TickY}}" text-anchor="middle">{{.Label}}</text>
{{end}}<line class="axis" x1="{{.Left}}" y1="{{.AxisY}}" x2="{{.Right}}" y2="{{.AxisY}}"/>
{{range .Rows}}<text x="{{$.NameX}}" y="{{.TextY}}" text-anchor="end">{{.Name}}</text><line class="ci" x1="{{.Lo}}" y1="{{.Y}}" x2="{{.Hi}}" y2="{{.Y}}"/><circle class="dot" cx="{{.X}}" cy="{{.Y}}" r="5"/><text x="{{$.LabelX}}" y="{{.TextY}}">{{.Label}}</text>
{{end}}<text x="{{.Mid}}" y="{{.TitleY}}" text-anchor="middle">{{.Title}}</text>
</svg>`))

// Intervals draws one row per item, in order: a dot at the value and a bar
// over the interval, on a shared horizontal axis titled axis.
func Intervals(items []Interval, axis string) template.HTML {
	const left, right, rowH = 150.0, 620.0, 28.0
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, it := range items {
		lo, hi = min(lo, it.Lo, it.Value), max(hi, it.Hi, it.Value)
	}
	if len(items) == 0 {
		lo, hi = 0, 1
	}
	if hi-lo < 1e-9 {
		lo, hi = lo-1, hi+1
	}
	step := niceStep(hi-lo, 6)
	lo, hi = math.Floor(lo/step)*step, math.Ceil(hi/step)*step
	x := func(v float64) string { return num(left + (v-lo)/(hi-lo)*(right-left)) }
	type tick struct{ X, Label string }
	var ticks []tick
	for v := lo; v <= hi+step/2; v += step {
		ticks = append(ticks, tick{x(v), fmt.Sprintf("%+.0f", v)})
	}
	type row struct{ Name, Label, X, Lo, Hi, Y, TextY string }
	var rows []row
	for i, it := range items {
		y := 20 + rowH*float64(i)
		rows = append(rows, row{Name: it.Name, Label: it.Label, X: x(it.Value), Lo: x(it.Lo), Hi: x(it.Hi), Y: num(y), TextY: num(y + 4)})
	}
	axisY := 20 + rowH*float64(len(items)) - rowH/2
	return render(intervalsTmpl, map[string]any{
		"W": 800, "H": num(axisY + 45), "Left": num(left), "Right": num(right), "AxisY": num(axisY),
		"TickY": num(axisY + 16), "TitleY": num(axisY + 36), "Mid": num((left + right) / 2), "Title": axis,
		"NameX": num(left - 10), "LabelX": num(right + 12), "Ticks": ticks, "Rows": rows,
	})
}

var histTmpl = template.Must(template.New("hist").Parse(
	`<svg xmlns="http://www.w3.org/2000/svg" width="{{.W}}" height="{{.H}}" viewBox="0 0 {{.W}} {{.H}}" role="img" aria-label="{{.Title}}">
{{range .YTicks}}<line class="grid" x1="{{$.Left}}" y1="{{.Y}}" x2="{{$.Right}}" y2="{{.Y}}"/><text x="{{$.YLabelX}}" y="{{.TextY}}" text-anchor="end">{{.Label}}</text>
{{end}}{{range .Bars}}<rect class="bar" x="{{.X}}" y="{{.Y}}" width="{{.W}}" height="{{.H}}"><title>{{.Title}}</title></rect>
{{end}}<line class="axis" x1="{{.Left}}" y1="{{.Base}}" x2="{{.Right}}" y2="{{.Base}}"/>
{{range .XTicks}}<text x="{{.X}}" y="{{$.XLabelY}}" text-anchor="middle">{{.Label}}</text>
{{end}}{{if .Mean}}<line class="mean" x1="{{.Mean}}" y1="10" x2="{{.Mean}}" y2="{{.Base}}"/><text x="{{.Mean}}" y="8" text-anchor="middle">{{.MeanLabel}}</text>
{{end}}<text x="{{.Mid}}" y="{{.TitleY}}" text-anchor="middle">{{.Title}}</text>
</svg>`))

// Histogram draws how many of values fall in each bin: bins one unit wide
// over the range of values, or wider (1, 2 or 5 times a power of ten) when
// the range is more than 60; a dashed line marks the mean. axis titles the
// horizontal axis.
func Histogram(values []int, axis string) template.HTML {
	const left, right, top, base = 60.0, 760.0, 20.0, 260.0
	if len(values) == 0 {
		return template.HTML(`<p class="notes">no data</p>`)
	}
	lo, hi, sum := values[0], values[0], 0
	for _, v := range values {
		lo, hi, sum = min(lo, v), max(hi, v), sum+v
	}
	width := 1
	if hi-lo+1 > 60 {
		width = int(niceStep(float64(hi-lo+1), 40))
	}
	first := lo - ((lo%width)+width)%width // floor to a multiple of width
	nbins := (hi-first)/width + 1
	counts := make([]int, nbins)
	for _, v := range values {
		counts[(v-first)/width]++
	}
	top1 := slices.Max(counts) // counts has at least one bin
	ystep := niceStep(float64(top1), 5)
	ymax := math.Ceil(float64(top1)/ystep) * ystep
	bw := (right - left) / float64(nbins)
	// xOf is where value v is drawn: the middle of its bin for bins one
	// unit wide, else on the scale of the bins' edges.
	xOf := func(v float64) float64 {
		x := left + (v-float64(first))/float64(width)*bw
		if width == 1 {
			x += bw / 2
		}
		return x
	}
	type bar struct{ X, Y, W, H, Title string }
	var bars []bar
	for i, c := range counts {
		if c == 0 {
			continue
		}
		h := float64(c) / ymax * (base - top)
		from := first + i*width
		what := fmt.Sprint(from)
		if width > 1 {
			what = fmt.Sprintf("%d to %d", from, from+width-1)
		}
		bars = append(bars, bar{X: num(left + float64(i)*bw + 1), Y: num(base - h), W: num(max(bw-2, 1)), H: num(h),
			Title: fmt.Sprintf("%s: %d of %d", what, c, len(values))})
	}
	type tick struct{ X, Y, TextY, Label string }
	var yt []tick
	for v := 0.0; v <= ymax+ystep/2; v += ystep {
		y := base - v/ymax*(base-top)
		yt = append(yt, tick{Y: num(y), TextY: num(y + 4), Label: fmt.Sprintf("%.0f", v)})
	}
	xstep := int(max(niceStep(float64(nbins*width), 10), float64(width)))
	var xt []tick
	end := first + nbins*width // the last bin's right edge
	if width == 1 {
		end = hi // the last bin's middle
	}
	for v := (first + xstep - 1) / xstep * xstep; v <= end; v += xstep {
		xt = append(xt, tick{X: num(xOf(float64(v))), Label: fmt.Sprint(v)})
	}
	mean := float64(sum) / float64(len(values))
	return render(histTmpl, map[string]any{
		"W": 800, "H": 310, "Left": num(left), "Right": num(right), "Base": num(base), "YLabelX": num(left - 6),
		"XLabelY": num(base + 16), "TitleY": num(base + 40), "Mid": num((left + right) / 2), "Title": axis,
		"Bars": bars, "YTicks": yt, "XTicks": xt,
		"Mean": num(xOf(mean)), "MeanLabel": fmt.Sprintf("mean %.2f", mean),
	})
}

// HeatCell is one cell of a Heatmap.
type HeatCell struct {
	Value float64 // 0 to 1: the colour
	Text  string  // printed in the cell
	Title string  // shown on hover
	Rock  bool    // not part of the board
}

var heatTmpl = template.Must(template.New("heat").Parse(`<table class="heat">
<tr><th></th>{{range .Cols}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr><th>{{.Label}}</th>{{range .Cells}}{{if .Rock}}<td class="rock"></td>{{else}}<td{{if .Dark}} class="dark"{{end}} style="background: {{.Colour}}" title="{{.Title}}">{{.Text}}</td>{{end}}{{end}}</tr>
{{end}}</table>`))

// Heatmap draws a board of cells (by index y*len(cols) + x) coloured from
// white (0) to dark red (1), with column and row labels.
func Heatmap(cols, rows []string, cells []HeatCell) template.HTML {
	type td struct {
		HeatCell
		Dark   bool
		Colour template.CSS
	}
	type tr struct {
		Label string
		Cells []td
	}
	var out []tr
	for y, label := range rows {
		r := tr{Label: label}
		for x := range cols {
			i := y*len(cols) + x
			if i >= len(cells) {
				break
			}
			c := cells[i]
			r.Cells = append(r.Cells, td{HeatCell: c, Dark: c.Value >= 0.6, Colour: heatColour(c.Value)})
		}
		out = append(out, r)
	}
	return render(heatTmpl, map[string]any{"Cols": cols, "Rows": out})
}

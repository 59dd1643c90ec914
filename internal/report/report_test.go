package report_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/internal/report"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// samplePage uses every picture on fixed data.
func samplePage() report.Page {
	names := []string{"alpha", "beta", "gamma <g>"}
	rec := map[[2]string]report.Cross{
		{"alpha", "beta"}: {Score: 0.75, Text: "14-2-4", OK: true}, {"beta", "alpha"}: {Score: 0.25, Text: "4-2-14", OK: true},
		{"alpha", "gamma <g>"}: {Score: 1, Text: "20-0-0", OK: true}, {"gamma <g>", "alpha"}: {Score: 0, Text: "0-0-20", OK: true},
	}
	cells := make([]report.HeatCell, 6)
	for i := range cells {
		cells[i] = report.HeatCell{Value: float64(i) / 5, Text: strconv.Itoa(20 * i), Title: "cell " + strconv.Itoa(i)}
	}
	cells[4] = report.HeatCell{Rock: true}
	return report.Page{
		Title: "A <sample> report",
		Lines: []string{"seed 1", "rules: the published game"},
		Sections: []report.Section{
			{Heading: "Cross", Body: report.CrossTable(names, func(a, b string) report.Cross { return rec[[2]string{a, b}] })},
			{Heading: "Ratings", Body: report.Intervals([]report.Interval{
				{Name: "alpha", Value: 120, Lo: 60, Hi: 190, Label: "+120"},
				{Name: "beta", Value: -20, Lo: -80, Hi: 30, Label: "-20"},
				{Name: "gamma <g>", Value: -100, Lo: -170, Hi: -40, Label: "-100"},
			}, "Elo"), Notes: []string{"a note & more"}},
			{Heading: "Histogram", Body: report.Histogram([]int{40, 41, 41, 43, 43, 43, 50}, "shots")},
			{Heading: "Wide histogram", Body: report.Histogram([]int{1, 30, 200, 201, 205, 399}, "shots")},
			{Heading: "Heatmap", Body: report.Heatmap([]string{"A", "B", "C"}, []string{"1", "2"}, cells)},
		},
	}
}

func TestGolden(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, report.Write(&b, samplePage()))
	golden := filepath.Join("testdata", "sample.html")
	if *update {
		require.NoError(t, os.WriteFile(golden, b.Bytes(), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	require.Equal(t, string(want), b.String())

	page := b.String()
	for _, ref := range []string{"<script", "src=", "href=", "url(", "@import"} {
		require.NotContains(t, page, ref, "self-contained, no script")
	}
	require.NotContains(t, page, "<sample>", "text is escaped")
	require.NotContains(t, page, "gamma <g>")
	require.Contains(t, page, "gamma &lt;g&gt;")
}

func TestHistogram(t *testing.T) {
	tests := []struct {
		name   string
		values []int
		want   []string // bar titles
	}{
		{"one unit wide", []int{3, 5, 5, 3, 5}, []string{"3: 2 of 5", "5: 3 of 5"}},
		{"one value", []int{7}, []string{"7: 1 of 1"}},
		{"range over 60: about 40 round bins (5)", []int{0, 9, 10, 99, 100}, []string{"0 to 4: 1 of 5", "5 to 9: 1 of 5", "10 to 14: 1 of 5", "95 to 99: 1 of 5", "100 to 104: 1 of 5"}},
		{"bins start on a multiple of their width", []int{203, 290}, []string{"200 to 204: 1 of 2", "290 to 294: 1 of 2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, m := range regexp.MustCompile(`<title>([^<]*)</title>`).FindAllStringSubmatch(string(report.Histogram(tt.values, "x")), -1) {
				got = append(got, m[1])
			}
			require.Equal(t, tt.want, got)
		})
	}
	require.Contains(t, string(report.Histogram(nil, "x")), "no data")
	require.Contains(t, string(report.Histogram([]int{1, 2, 3}, "x")), "mean 2.00")
}

func TestIntervalsPlacesValuesInOrder(t *testing.T) {
	svg := string(report.Intervals([]report.Interval{
		{Name: "a", Value: 100, Lo: 50, Hi: 150}, {Name: "b", Value: 0, Lo: -50, Hi: 50}, {Name: "c", Value: -100, Lo: -150, Hi: -50},
	}, "Elo"))
	var xs []float64
	for _, m := range regexp.MustCompile(`<circle class="dot" cx="([0-9.]+)"`).FindAllStringSubmatch(svg, -1) {
		x, err := strconv.ParseFloat(m[1], 64)
		require.NoError(t, err)
		xs = append(xs, x)
	}
	require.Len(t, xs, 3)
	require.Greater(t, xs[0], xs[1])
	require.Greater(t, xs[1], xs[2])
	require.InDelta(t, xs[1]-xs[2], xs[0]-xs[1], 0.01, "a linear axis")
	require.Contains(t, svg, ">&#43;0<", "a tick at +0")
	// Equal values still draw.
	require.Contains(t, string(report.Intervals([]report.Interval{{Name: "x"}}, "Elo")), `<circle class="dot"`)
}

func TestCrossTableColours(t *testing.T) {
	names := []string{"a", "b"}
	html := string(report.CrossTable(names, func(a, b string) report.Cross {
		if a == "a" {
			return report.Cross{Score: 1, Text: "1-0-0", OK: true}
		}
		return report.Cross{}
	}))
	require.Contains(t, html, `<td style="background: hsl(130, 55%, 50%)">100.0%<small>1-0-0</small></td>`)
	require.Equal(t, 2, strings.Count(html, `class="self"`))
	require.Contains(t, html, "<td></td>", "no games: an empty cell")
}

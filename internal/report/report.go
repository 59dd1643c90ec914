package report

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"strconv"
)

//go:embed page.html
var pageHTML string

var page = template.Must(template.New("page").Parse(pageHTML))

// Page is one report.
type Page struct {
	Title    string
	Lines    []string // context under the title: command, seed, rules
	Sections []Section
}

// Section is one titled part of a page: Body is one of the pictures of
// this package (or any trusted HTML), Notes explain it.
type Section struct {
	Heading string
	Body    template.HTML
	Notes   []string
}

// Write writes p as a self-contained HTML page.
func Write(w io.Writer, p Page) error {
	bw := bufio.NewWriter(w)
	if err := page.Execute(bw, p); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return bw.Flush()
}

// render executes a picture's template.
func render(t *template.Template, data any) template.HTML {
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		// The templates are fixed and their data built here: an error is a
		// bug, shown in the page rather than lost.
		return template.HTML(template.HTMLEscapeString("report: " + err.Error()))
	}
	return template.HTML(b.String()) //nolint:gosec // built by html/template: escaped
}

// num formats a coordinate or value with at most 2 decimals.
func num(v float64) string { return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64) }

// heatColour is white for 0, dark red for 1.
func heatColour(v float64) template.CSS {
	v = min(max(v, 0), 1)
	return template.CSS(fmt.Sprintf("hsl(0, 85%%, %s%%)", num(100-62*v)))
}

// scoreColour is red for 0, white for 1/2, green for 1.
func scoreColour(v float64) template.CSS {
	v = min(max(v, 0), 1)
	if v < 0.5 {
		return template.CSS(fmt.Sprintf("hsl(0, 75%%, %s%%)", num(100-44*(0.5-v)*2)))
	}
	return template.CSS(fmt.Sprintf("hsl(130, 55%%, %s%%)", num(100-50*(v-0.5)*2)))
}

// niceStep is a round tick step (1, 2 or 5 times a power of ten) giving
// about n ticks over span.
func niceStep(span float64, n int) float64 {
	if span <= 0 || n < 1 {
		return 1
	}
	raw := span / float64(n)
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

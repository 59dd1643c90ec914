package figures

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/internal/cli"
	"github.com/kaisen-ai/kaisen/internal/race"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/ from the commands' output")

// figure is one seeded command whose output the docs quote.
type figure struct {
	name   string            // testdata/NAME.golden
	args   []string          // the kaisen command line, as the docs print it
	files  map[string]string // written to a temporary directory; args naming one get its path
	quotes []quote
	// play, when set, computes the figure in place of running args (a
	// measurement of more than one command, such as a server and its
	// client): its text is the output, args only name it.
	play func(t *testing.T) string
}

// quote is where a page shows a figure: the text render makes from the
// output must appear in the page verbatim.
type quote struct {
	page   string // path from the module root
	render func(o *output) string
}

// output is the deterministic part of a command's output.
type output struct {
	golden string         // what testdata/NAME.golden holds
	json   map[string]any // the --json line, when there is one
	text   string         // stdout otherwise
	stderr []string       // the stderr lines kept (the counting bots' method counts)
}

// timing matches the fields of a --json line that depend on the machine.
var timing = regexp.MustCompile(`,"(games_per_sec|ms_per_move_p99)":[^,}]*`)

// keptStderr matches the stderr lines that belong to a figure.
var keptStderr = regexp.MustCompile(`^(density|greedy|adaptive) moves: `)

// run runs the figure's command in-process and keeps its deterministic part:
// the command, then the --json line without timing fields (or all of stdout),
// then the kept stderr lines prefixed by "(stderr) ".
func run(t *testing.T, f figure, dir string) *output {
	t.Helper()
	if f.play != nil {
		text := f.play(t)
		return &output{text: text, golden: fmt.Sprintf("$ kaisen %s\n%s", strings.Join(f.args, " "), text)}
	}
	args := make([]string, len(f.args))
	for i, a := range f.args {
		if _, ok := f.files[a]; ok {
			a = filepath.Join(dir, a)
		}
		args[i] = a
	}
	var stdout, stderr bytes.Buffer
	code := cli.Run(context.Background(), args, nil, &stdout, &stderr)
	require.Equal(t, 0, code, "kaisen %s: %s", strings.Join(f.args, " "), stderr.String())

	o := &output{}
	var g strings.Builder
	fmt.Fprintf(&g, "$ kaisen %s\n", strings.Join(f.args, " "))
	if f.args[len(f.args)-1] == "--json" {
		lines := strings.Split(strings.TrimRight(stdout.String(), "\n"), "\n")
		line := timing.ReplaceAllString(lines[len(lines)-1], "")
		require.NoError(t, json.Unmarshal([]byte(line), &o.json), line)
		g.WriteString(line + "\n")
	} else {
		o.text = stdout.String()
		g.WriteString(o.text)
	}
	for l := range strings.Lines(stderr.String()) {
		if l = strings.TrimRight(l, "\n"); keptStderr.MatchString(l) {
			o.stderr = append(o.stderr, l)
			g.WriteString("(stderr) " + l + "\n")
		}
	}
	o.golden = g.String()
	return o
}

// TestGoldenFigures re-runs every figure and compares it with its golden
// file, then checks the pages that quote it.
func TestGoldenFigures(t *testing.T) {
	race.SkipFullSize(t)
	var (
		mu    sync.Mutex
		pages = map[string]string{}
	)
	page := func(t *testing.T, name string) string {
		mu.Lock()
		defer mu.Unlock()
		if _, ok := pages[name]; !ok {
			b, err := os.ReadFile(filepath.Join("..", "..", name))
			require.NoError(t, err)
			pages[name] = squeeze(string(b))
		}
		return pages[name]
	}
	for _, f := range figures() {
		t.Run(f.name, func(t *testing.T) {
			t.Parallel() // each figure is its own seeded run: the cores share them
			dir := t.TempDir()
			for name, body := range f.files {
				require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
			}
			o := run(t, f, dir)
			path := filepath.Join("testdata", f.name+".golden")
			if *update {
				require.NoError(t, os.WriteFile(path, []byte(o.golden), 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "no golden file: run go test ./internal/figures -run Golden -update")
			require.Equal(t, string(want), o.golden, "the figure moved: run go test ./internal/figures -run Golden -update, then fix the pages it names")
			for _, q := range f.quotes {
				if want := q.render(o); !strings.Contains(page(t, q.page), squeeze(want)) {
					t.Errorf("%s does not quote the figure of `kaisen %s` as\n%s", q.page, strings.Join(f.args, " "), want)
				}
			}
		})
	}
}

// TestGoldenFilesHaveFigures keeps testdata/ free of golden files no
// figure writes any more.
func TestGoldenFilesHaveFigures(t *testing.T) {
	names := map[string]bool{}
	for _, f := range figures() {
		require.False(t, names[f.name], "figure %s twice", f.name)
		names[f.name] = true
	}
	files, err := filepath.Glob(filepath.Join("testdata", "*.golden"))
	require.NoError(t, err)
	for _, p := range files {
		require.True(t, names[strings.TrimSuffix(filepath.Base(p), ".golden")], "%s belongs to no figure", p)
	}
}

func (o *output) int(key string) int {
	v, ok := o.json[key].(float64)
	if !ok {
		panic("figures: no number " + key + " in the --json line")
	}
	return int(v)
}

func (o *output) float(key string) float64 {
	v, ok := o.json[key].(float64)
	if !ok {
		panic("figures: no number " + key + " in the --json line")
	}
	return v
}

func (o *output) str(key string) string {
	v, ok := o.json[key].(string)
	if !ok {
		panic("figures: no string " + key + " in the --json line")
	}
	return v
}

// share formats k of n as "k (p%) [lo, hi]" with the 95% Wilson interval, the
// way kaisen match prints it.
func share(k, n int) string {
	iv := arena.Wilson(k, n, arena.Z95)
	return fmt.Sprintf("%d (%.1f%%) [%.1f, %.1f]", k, 100*float64(k)/float64(n), 100*iv.Lo, 100*iv.Hi)
}

// pct2 formats k of n in percent with two decimals, a final zero dropped
// (97.55, 99.0).
func pct2(k, n int) string {
	return strings.TrimSuffix(strconv.FormatFloat(100*float64(k)/float64(n), 'f', 2, 64), "0")
}

// spaced writes n with a space between groups of three digits (10 000).
func spaced(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + " " + s[i:]
	}
	return s
}

// matchRow is a row of the match tables of docs/results.md, up to p90:
// p1, p2, games, p1's wins, draws and losses with intervals, forfeits,
// mean and p90 actions.
func matchRow(o *output) string {
	n := o.int("games")
	return fmt.Sprintf("| %s | %s | %d | %s | %s | %s | %d | %.1f | %d |",
		o.str("p1"), o.str("p2"), n, share(o.int("p1_wins"), n), share(o.int("draws"), n), share(o.int("p2_wins"), n),
		o.int("p1_forfeits")+o.int("p2_forfeits"), o.float("mean_actions"), o.int("p90_actions"))
}

// admiralRow is the start of a row of the "After issue 11" table of
// docs/admiral.md: opponent, games, admiral's wins with their interval,
// draws.
func admiralRow(o *output) string {
	n, w := o.int("games"), o.int("p1_wins")
	iv := arena.Wilson(w, n, arena.Z95)
	return fmt.Sprintf("| %s | %d | %d = **%s%%** [%.1f, %.1f] | %d |",
		o.str("p2"), n, w, pct2(w, n), 100*iv.Lo, 100*iv.Hi, o.int("draws"))
}

// round formats x with prec decimals, rounding half up on its shortest
// decimal form (the --json lines hold 3 decimals: 58.315 gives 58.32, where
// %.2f of the nearest float64 gives 58.31).
func round(x float64, prec int) string {
	r, ok := new(big.Rat).SetString(strconv.FormatFloat(x, 'f', -1, 64))
	if !ok {
		panic("figures: bad number")
	}
	scale := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(prec)), nil))
	r.Mul(r, scale).Add(r, big.NewRat(1, 2))
	q := new(big.Int).Div(r.Num(), r.Denom()) // floor: x >= 0
	return new(big.Rat).SetFrac(q, scale.Num()).FloatString(prec)
}

// shotsRow is a row of the shots tables of docs/battleship.md and
// docs/results.md, the bot's label first.
func shotsRow(label string) func(o *output) string {
	return func(o *output) string {
		return fmt.Sprintf("| %s | %s | %s | %v | %s | %d | %d |",
			label, spaced(o.int("games")), round(o.float("mean"), 2), o.json["median"], round(o.float("sd"), 2), o.int("p90"), o.int("max"))
	}
}

// vsLine is the paired comparison kaisen shots --vs prints under its
// table.
func vsLine(o *output) string {
	return fmt.Sprintf("%s on the same fleets: mean %.2f; %s − %s per game: %+.2f ± %.2f (95%%)",
		o.str("vs"), o.float("vs_mean"), o.str("player"), o.str("vs"), o.float("diff_mean"), o.float("diff_ci95"))
}

// bsMatchRow is a row of the Battleship head-to-head tables: the pair,
// games, p1's wins and losses with intervals, each side's mean shots.
func bsMatchRow(o *output) string {
	n := o.int("games")
	return fmt.Sprintf("| %s vs %s | %d | %s | %s | %d | %s | %s |",
		o.str("p1"), o.str("p2"), n, share(o.int("p1_wins"), n), share(o.int("p2_wins"), n),
		o.int("p1_forfeits")+o.int("p2_forfeits"), round(o.float("p1_mean_shots"), 2), round(o.float("p2_mean_shots"), 2))
}

// stdoutLines quotes lines from..to (1-based, inclusive) of a text output,
// without the last newline.
func stdoutLines(from, to int) func(o *output) string {
	return func(o *output) string {
		lines := strings.SplitAfter(o.text, "\n")
		return strings.TrimSuffix(strings.Join(lines[from-1:to], ""), "\n")
	}
}

// stderrLine quotes the kept stderr line with prefix, from the prefix on.
func stderrLine(prefix string) func(o *output) string {
	return func(o *output) string {
		for _, l := range o.stderr {
			if strings.HasPrefix(l, prefix) {
				return l
			}
		}
		return "(no stderr line " + prefix + ")"
	}
}

func TestRound(t *testing.T) {
	tests := []struct {
		x    float64
		prec int
		want string
	}{
		{58.315, 2, "58.32"},
		{6.725, 2, "6.73"},
		{4.115, 2, "4.12"},
		{96.171, 2, "96.17"},
		{60, 2, "60.00"},
		{0.5, 0, "1"},
		{51.134, 2, "51.13"},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, round(tt.x, tt.prec), "%v", tt.x)
	}
}

// TestCISmokeIsTheSmokeFigure keeps the smoke step of .ci/run, which runs
// the built binary and compares with testdata/smoke.golden, on the command
// of the smoke figure.
func TestCISmokeIsTheSmokeFigure(t *testing.T) {
	ci, err := os.ReadFile("../../.ci/run")
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^smoke='([^']*)'$`).FindSubmatch(ci)
	require.NotNil(t, m, "no smoke='…' line in .ci/run")
	require.Contains(t, string(ci), "golden=internal/figures/testdata/smoke.golden")
	for _, f := range figures() {
		if f.name == "smoke" {
			require.Equal(t, strings.Join(f.args, " "), string(m[1]))
			return
		}
	}
	t.Fatal("no smoke figure")
}

// squeeze collapses every run of white space (line breaks included) to one
// space, so a page may wrap its prose anywhere without breaking a quote.
func squeeze(s string) string { return strings.Join(strings.Fields(s), " ") }

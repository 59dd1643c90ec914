package race_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/internal/race"
)

// TestCIRunsTheFullSizeStep reads .ci/run and scripts/test.sh (the README's
// test command, which .ci/run calls): the tests SkipFullSize leaves out of
// the -race run must be run by a step without -race that selects them.
func TestCIRunsTheFullSizeStep(t *testing.T) {
	ci, err := os.ReadFile("../../.ci/run")
	require.NoError(t, err)
	script, err := os.ReadFile("../../scripts/test.sh")
	require.NoError(t, err)
	require.Regexp(t, `(?m)^scripts/test\.sh( -vet=off)?( \|\||$)`, string(ci), ".ci/run runs the README's test command")
	require.Regexp(t, `(?m)^\s*(record full )?scripts/test\.sh --full( |$)`, string(ci), ".ci/run runs the full-size step")
	step := regexp.MustCompile(`(?m)^\s*(exec )?go test .*-run '` + regexp.QuoteMeta(race.FullSizePattern) + `' .*$`).Find(script)
	require.NotNil(t, step, "no `go test -run '%s' ...` line in scripts/test.sh", race.FullSizePattern)
	require.NotContains(t, string(step), "-race")
	require.NotContains(t, string(step), "-short")
	require.Regexp(t, `(?m)^\s*(exec )?go test -race .*\./\.\.\.$`, string(script), "the README's test command runs the suite under -race")
}

// TestFullSizeStepFindsEveryPackage: the packages scripts/test.sh --full
// runs (scripts/test.sh --list-full) are those with a top-level test that
// FullSizePattern selects, read here with go/parser from every test file
// of the module.
func TestFullSizeStepFindsEveryPackage(t *testing.T) {
	root := filepath.Join("..", "..")
	pattern := regexp.MustCompile(race.FullSizePattern)
	var want []string
	require.NoError(t, filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Test") && pattern.MatchString(fn.Name.Name) {
				rel, err := filepath.Rel(root, filepath.Dir(path))
				require.NoError(t, err)
				want = append(want, "./"+filepath.ToSlash(rel))
				break
			}
		}
		return nil
	}))
	slices.Sort(want)
	want = slices.Compact(want)
	require.Contains(t, want, "./internal/race", "this package's own FullSize test is found")

	cmd := exec.Command("bash", "scripts/test.sh", "--list-full")
	cmd.Dir = root
	out, err := cmd.Output()
	require.NoError(t, err)
	require.Equal(t, want, strings.Fields(string(out)))
}

// fakeT records what SkipFullSize does without stopping the test.
type fakeT struct {
	testing.TB
	name            string
	skipped, failed string
}

func (f *fakeT) Helper()                           {}
func (f *fakeT) Name() string                      { return f.name }
func (f *fakeT) Skip(args ...any)                  { f.skipped = strings.TrimSpace(sprint(args)) }
func (f *fakeT) Fatalf(format string, args ...any) { f.failed = format }

func sprint(args []any) string {
	var b strings.Builder
	for _, a := range args {
		b.WriteString(a.(string))
	}
	return b.String()
}

func TestSkipFullSize(t *testing.T) {
	tests := []struct {
		name     string
		wantFail bool
	}{
		{"TestFullSizeCount", false},
		{"TestGoldenMatches/stateplayer2 vs state", false},
		{"TestCount", true},
		{"TestCount/FullSize", true}, // the step selects on the top-level name
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeT{TB: t, name: tt.name}
			race.SkipFullSize(f)
			if tt.wantFail {
				require.NotEmpty(t, f.failed)
				return
			}
			require.Empty(t, f.failed)
			if race.Enabled || testing.Short() {
				require.Contains(t, f.skipped, race.FullSizeStep, "a skip names the step that runs the test")
			} else {
				require.Empty(t, f.skipped)
			}
		})
	}
}

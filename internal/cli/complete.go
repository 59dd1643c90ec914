package cli

import (
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/internal/progress"
)

// completeWords makes the shell complete flag of cmd with words.
func completeWords(cmd *cobra.Command, flag string, words ...string) {
	must(cmd.RegisterFlagCompletionFunc(flag, cobra.FixedCompletions(words, cobra.ShellCompDirectiveNoFileComp)))
}

// completePlayers makes the shell complete flag with the names of the AIs
// of the games of the registry that have, e.g. anyGame or hasTool(t). With
// list, the value is a comma-separated list and each item is completed.
func completePlayers(cmd *cobra.Command, flag string, list bool, have func(games.Game) bool) {
	must(cmd.RegisterFlagCompletionFunc(flag, func(_ *cobra.Command, _ []string, typed string) ([]cobra.Completion, cobra.ShellCompDirective) {
		var names []string
		for _, g := range games.All() {
			if have(g) {
				for _, p := range g.Players() {
					names = append(names, p.Name)
				}
			}
		}
		prefix := ""
		if list {
			if i := strings.LastIndexByte(typed, ','); i >= 0 {
				prefix = typed[:i+1]
			}
		}
		out := make([]cobra.Completion, 0, len(names))
		for _, n := range names {
			out = append(out, prefix+n)
		}
		dir := cobra.ShellCompDirectiveNoFileComp
		if list {
			dir |= cobra.ShellCompDirectiveNoSpace
		}
		return out, dir
	}))
}

// completeFiles makes the shell complete flag with YAML files.
func completeYAML(cmd *cobra.Command, flags ...string) {
	for _, f := range flags {
		must(cmd.MarkFlagFilename(f, "yaml", "yml"))
	}
}

func must(err error) {
	if err != nil {
		panic(err) // a flag registered just above: a programming error
	}
}

// progressModes are the values of --progress.
var progressModes = []string{"auto", "bar", "lines", "never"}

// progressEvery is how often --progress lines (auto off a terminal) prints.
const progressEvery = 10 * time.Second

// addProgressFlag registers --progress.
func addProgressFlag(cmd *cobra.Command, p *string) {
	cmd.Flags().StringVar(p, "progress", "auto", "progress on stderr: auto (a bar on a terminal, else a line every 10s), bar, lines or never")
	annotate(cmd, "progress", kindProgress)
	completeWords(cmd, "progress", progressModes...)
}

// newProgress returns the progress reporter --progress mode asks for
// (nil for never).
func newProgress(e *env, mode string, total int, unit string) *progress.Bar {
	switch {
	case mode == "never":
		return nil
	case mode == "bar" || mode == "auto" && progress.IsTerminal(e.stderr):
		return progress.New(e.stderr, total, unit)
	default:
		return progress.NewLines(e.stderr, total, unit, progressEvery)
	}
}

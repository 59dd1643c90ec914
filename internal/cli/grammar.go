package cli

import (
	"fmt"
	"runtime"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The flags every command shares are registered here, so that they mean the
// same everywhere (docs/cli.md):
//
//	-n, --games N     the number of games
//	--seed S          the seed; random and printed on stderr unless given
//	--workers K       games at once; 0 = one per CPU
//	--json            the result as JSON on stdout (the last line)
//	--rules FILE      match rules (board, fleet, draw limit)
//	--weights FILE    an AI's weights (--p1-weights, --house-weights, ...)
//	--progress MODE   auto, bar, lines or never
//
// Each helper marks its flag with the grammarKey annotation; the grammar
// test walks every command and checks that shared names were registered
// through these helpers. Old flag names stay as hidden, deprecated aliases
// (alias) so scripts keep working.

// grammarKey is the flag annotation naming the shared meaning of a flag.
const grammarKey = "kaisen-grammar"

// Values of grammarKey.
const (
	kindGames    = "games"
	kindSeed     = "seed"
	kindWorkers  = "workers"
	kindJSON     = "json"
	kindRules    = "rules"
	kindWeights  = "weights"
	kindProgress = "progress"
	kindAlias    = "alias" // the value's second element is the flag it stands for
)

// seedNeededKey is the annotation of a flag that needs --seed (its value:
// why). checkShared refuses the flag without --seed before a seed is
// drawn and printed.
const seedNeededKey = "kaisen-seed-needed"

// settingsFileKey is the command annotation of a command that reads its own
// settings file with --config (kaisen serve); no other command has --config.
const settingsFileKey = "kaisen-settings-file"

// seedLaterKey is the command annotation naming a flag that, when given,
// makes the command print a drawn seed itself, later: kaisen play
// --against prints it when the person's games are over, since a seed known
// during play tells the AI's fleet.
const seedLaterKey = "kaisen-seed-later"

func annotate(cmd *cobra.Command, name string, values ...string) {
	if err := cmd.Flags().SetAnnotation(name, grammarKey, values); err != nil {
		panic(err) // a flag registered just above: a programming error
	}
}

// addGamesFlag registers -n/--games, the number of games (what counts as
// one is in usage, e.g. "games per pair").
func addGamesFlag(cmd *cobra.Command, p *int, def int, usage string) {
	cmd.Flags().IntVarP(p, "games", "n", def, usage)
	annotate(cmd, "games", kindGames)
}

// addSeedFlag registers --seed. Unless it is given, a seed is drawn at
// random before the command runs and printed on stderr (drawSeeds), so
// every run can be repeated.
func addSeedFlag(cmd *cobra.Command, p *uint64, usage string) {
	cmd.Flags().Uint64Var(p, "seed", 0, usage+" (default: drawn at random and printed on stderr)")
	annotate(cmd, "seed", kindSeed)
}

// addWorkersFlag registers --workers: games at once, 0 = one per CPU.
func addWorkersFlag(cmd *cobra.Command, p *int, def int) {
	cmd.Flags().IntVar(p, "workers", def, "games played at once (0 = one per CPU)")
	annotate(cmd, "workers", kindWorkers)
}

// addJSONFlag registers --json: the result as JSON on stdout.
func addJSONFlag(cmd *cobra.Command, p *bool, usage string) {
	cmd.Flags().BoolVar(p, "json", false, usage)
	annotate(cmd, "json", kindJSON)
}

// addRulesFlag registers --rules FILE (match rules: board, fleet, draw
// limit) and the old names as deprecated aliases.
func addRulesFlag(cmd *cobra.Command, p *string, usage string, old ...string) {
	cmd.Flags().StringVar(p, "rules", "", usage)
	annotate(cmd, "rules", kindRules)
	for _, o := range old {
		alias(cmd, o, "rules")
	}
}

// addWeightsFlag registers a weights flag (name is "weights" or ends in
// "-weights") and the old names as deprecated aliases.
func addWeightsFlag(cmd *cobra.Command, p *string, name, usage string, old ...string) {
	cmd.Flags().StringVar(p, name, "", usage)
	annotate(cmd, name, kindWeights)
	for _, o := range old {
		alias(cmd, o, name)
	}
}

// alias registers old as a hidden, deprecated name of the flag to: both
// share one value, and giving old marks to as changed and prints a
// deprecation line on stderr (checkShared). (pflag's own MarkDeprecated
// would print its warning on the command's stdout.)
func alias(cmd *cobra.Command, old, to string) {
	fl := cmd.Flags()
	target := fl.Lookup(to)
	if target == nil {
		panic(fmt.Sprintf("alias %s: no flag --%s", old, to))
	}
	fl.AddFlag(&pflag.Flag{Name: old, Usage: "deprecated: use --" + to, Value: target.Value, DefValue: target.DefValue,
		NoOptDefVal: target.NoOptDefVal, Hidden: true})
	annotate(cmd, old, kindAlias, to)
}

// markAliases marks every flag given under an old name as changed, so that
// code asking Changed("rules") sees --config too, and returns the
// {old, new} names used.
func markAliases(fl *pflag.FlagSet) [][2]string {
	var used [][2]string
	fl.VisitAll(func(f *pflag.Flag) {
		if a := f.Annotations[grammarKey]; f.Changed && len(a) == 2 && a[0] == kindAlias {
			fl.Lookup(a[1]).Changed = true
			used = append(used, [2]string{f.Name, a[1]})
		}
	})
	return used
}

// checkShared checks the values of the shared flags of cmd and draws the
// seed when it was not given. It runs before every command (root's
// PersistentPreRunE).
func checkShared(cmd *cobra.Command, e *env) error {
	fl := cmd.Flags()
	for _, old := range markAliases(fl) {
		fmt.Fprintf(e.stderr, "kaisen: --%s is deprecated, use --%s\n", old[0], old[1])
	}
	var errs []string
	fl.VisitAll(func(f *pflag.Flag) {
		a := f.Annotations[grammarKey]
		if len(a) == 0 {
			return
		}
		switch a[0] {
		case kindGames:
			if n, _ := fl.GetInt(f.Name); n < 1 {
				errs = append(errs, fmt.Sprintf("-n %d: want at least 1 game", n))
			}
		case kindWorkers:
			if n, _ := fl.GetInt(f.Name); n < 0 {
				errs = append(errs, fmt.Sprintf("--workers %d: want 0 (one per CPU) or more", n))
			}
		case kindProgress:
			if v := f.Value.String(); !slices.Contains(progressModes, v) {
				errs = append(errs, fmt.Sprintf("--progress %q: want %s", v, strings.Join(progressModes, ", ")))
			}
		}
	})
	if len(errs) > 0 {
		return usageError("%s", strings.Join(errs, "; "))
	}
	// A command whose --seed was not given gets a drawn seed, announced on
	// stderr, or printed by the command itself once that reveals nothing
	// (seedLaterKey). A command with a settings file (serve) leaves the
	// seed to the file: with none, the server draws a secret key and never
	// prints it (docs/server.md, "Seeds and secrecy").
	if f := fl.Lookup("seed"); f != nil && !f.Changed {
		var need error
		fl.Visit(func(g *pflag.Flag) {
			if why := g.Annotations[seedNeededKey]; len(why) > 0 && need == nil {
				need = usageError("--%s needs --seed: %s", g.Name, why[0])
			}
		})
		if need != nil {
			return need
		}
	}
	if f := fl.Lookup("seed"); f != nil && !f.Changed && len(f.Annotations[grammarKey]) > 0 && cmd.Annotations[settingsFileKey] == "" {
		var s uint64
		var err error
		if later := cmd.Annotations[seedLaterKey]; later != "" && fl.Changed(later) {
			s, err = randomSeed() // the command prints it (seedLaterKey)
		} else {
			s, err = announceSeed(cmd, e)
		}
		if err != nil {
			return err
		}
		if err := f.Value.Set(fmt.Sprint(s)); err != nil { // Value.Set leaves Changed false
			return err
		}
	}
	return nil
}

// announceSeed draws a seed for a run without --seed and prints it on
// stderr with the flag that repeats the run.
func announceSeed(cmd *cobra.Command, e *env) (uint64, error) {
	s, err := randomSeed()
	if err != nil {
		return 0, err
	}
	fmt.Fprintf(e.stderr, "%s: seed %d (drawn at random; add --seed %d to repeat)\n", cmd.CommandPath(), s, s)
	return s, nil
}

// kindOf is the shared meaning of f ("" for a command's own flag).
func kindOf(f *pflag.Flag) string {
	if a := f.Annotations[grammarKey]; len(a) > 0 {
		return a[0]
	}
	return ""
}

// workersOf resolves --workers: 0 is one per CPU.
func workersOf(n int) int {
	if n == 0 {
		return runtime.GOMAXPROCS(0)
	}
	return n
}

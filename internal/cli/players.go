package cli

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/games"
)

// playerJSON is one element of kaisen players --json.
type playerJSON struct {
	Game    string `json:"game"`
	Name    string `json:"name"`
	Weights string `json:"weights,omitempty"` // the YAML file under configs/ documenting its weights
	Summary string `json:"summary"`
}

func newPlayersCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "players",
		Short: "List the built-in AIs of every game (submarine and battleship)",
		Long: `List the built-in AIs with a one-line summary and the YAML file under
configs/ that documents their weights (pass a copy with --p1-weights,
--p2-weights, --house-weights or --weights to tune). One section per game:
the submarine-game AIs, then the classic Battleship AIs (kaisen match
--game battleship, kaisen shots). --json prints one JSON array of
{"game","name","weights","summary"} instead.`,
		Example: `  kaisen players
  kaisen players --json | jq -r '.[] | select(.game == "battleship") | .name'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if asJSON {
				out := []playerJSON{}
				for _, g := range games.All() {
					for _, p := range g.Players() {
						out = append(out, playerJSON{Game: g.Name, Name: p.Name, Weights: p.Config, Summary: p.Summary})
					}
				}
				return json.NewEncoder(e.stdout).Encode(out)
			}
			tw := tabwriter.NewWriter(e.stdout, 2, 4, 2, ' ', 0)
			for i, g := range games.All() {
				if i > 0 {
					fmt.Fprintln(tw)
				}
				fmt.Fprintf(tw, "%s:\n", g.Name)
				fmt.Fprintln(tw, "NAME\tWEIGHTS\tWHAT IT DOES")
				for _, p := range g.Players() {
					fmt.Fprintf(tw, "%s\t%s\t%s\n", p.Name, orDash(p.Config), p.Summary)
				}
			}
			return tw.Flush()
		},
	}
	addJSONFlag(cmd, &asJSON, "print the players as one JSON array")
	return cmd
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

package cli

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/games"
)

func newPlayersCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "players",
		Short: "List the built-in AIs of both games (submarine and battleship)",
		Long: `List the built-in AIs with a one-line summary and the YAML file under
configs/ that documents their weights (pass a copy with --p1-config/--p2-config
or --config to tune). Two sections: the submarine-game AIs, then the classic
Battleship AIs (kaisen match --game battleship, kaisen shots).

Example:
  kaisen players`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			tw := tabwriter.NewWriter(e.stdout, 2, 4, 2, ' ', 0)
			for i, g := range games.All() {
				if i > 0 {
					fmt.Fprintln(tw)
				}
				fmt.Fprintf(tw, "%s:\n", g.Name)
				fmt.Fprintln(tw, "NAME\tCONFIG\tWHAT IT DOES")
				for _, p := range g.Players() {
					fmt.Fprintf(tw, "%s\t%s\t%s\n", p.Name, orDash(p.Config), p.Summary)
				}
			}
			return tw.Flush()
		},
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

package cli

import (
	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/fsm"
)

func newFSMCmd(e *env) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "fsm",
		Short: "Print the stateplayer2 state machine as a diagram",
		Long: `Print the transition table of the stateplayer2 state machine (package fsm):
states sakuteki (search, initial), attack, escape and stealth, and the events
that move between them. The output is generated from the same table the player
runs, so it is always current.

Formats:
  mermaid   a Mermaid stateDiagram-v2 (paste into Markdown inside a mermaid block)
  dot       a Graphviz digraph
  table     one row per event with its source states, destination and reason`,
		Example: `  kaisen fsm                                  Mermaid diagram on stdout
  kaisen fsm --format dot | dot -Tsvg > fsm.svg
  kaisen fsm --format table`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f, err := fsm.ParseFormat(format)
			if err != nil {
				return usageError("--format: %w", err)
			}
			return fsm.WriteDiagram(e.stdout, f)
		},
	}
	cmd.Flags().StringVar(&format, "format", string(fsm.Mermaid), "output format: mermaid, dot or table")
	completeWords(cmd, "format", string(fsm.Mermaid), string(fsm.Dot), string(fsm.Text))
	return cmd
}

package fsm

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// Format is a diagram format of the transition table.
type Format string

// The diagram formats.
const (
	Mermaid Format = "mermaid" // a Mermaid stateDiagram-v2
	Dot     Format = "dot"     // a Graphviz digraph
	Text    Format = "table"   // a plain text table, one row per event
)

// Formats lists the diagram formats.
func Formats() []Format { return []Format{Mermaid, Dot, Text} }

// ErrFormat is returned for an unknown diagram format.
var ErrFormat = errors.New("fsm: unknown diagram format")

// ParseFormat returns the format called name.
func ParseFormat(name string) (Format, error) {
	for _, f := range Formats() {
		if string(f) == name {
			return f, nil
		}
	}
	return "", fmt.Errorf("%w %q (want mermaid, dot or table)", ErrFormat, name)
}

// Diagram renders the transition table in format f. Edges follow the table
// order (event by event, sources in the order listed), so the output is
// stable and diffable.
func Diagram(f Format) (string, error) {
	var sb strings.Builder
	if err := WriteDiagram(&sb, f); err != nil {
		return "", err
	}
	return sb.String(), nil
}

// WriteDiagram writes the transition table to w in format f.
func WriteDiagram(w io.Writer, f Format) error {
	var sb strings.Builder
	switch f {
	case Mermaid:
		sb.WriteString("stateDiagram-v2\n")
		fmt.Fprintf(&sb, "    [*] --> %s\n", Sakuteki)
		for _, t := range table {
			for _, s := range t.Src {
				fmt.Fprintf(&sb, "    %s --> %s: %s\n", s, t.Dst, t.Event)
			}
		}
	case Dot:
		sb.WriteString("digraph stateplayer2 {\n")
		sb.WriteString("    rankdir=LR;\n")
		sb.WriteString("    start [shape=point];\n")
		for _, s := range States() {
			fmt.Fprintf(&sb, "    %q;\n", s.String())
		}
		fmt.Fprintf(&sb, "    start -> %q;\n", Sakuteki.String())
		for _, t := range table {
			for _, s := range t.Src {
				fmt.Fprintf(&sb, "    %q -> %q [label=%q];\n", s.String(), t.Dst.String(), t.Event.String())
			}
		}
		sb.WriteString("}\n")
	case Text:
		width := 0
		for _, t := range table {
			width = max(width, len(t.Event.String()))
		}
		for _, t := range table {
			src := make([]string, len(t.Src))
			for i, s := range t.Src {
				src[i] = s.String()
			}
			fmt.Fprintf(&sb, "%-*s  %s -> %s\n%-*s  (%s)\n", width, t.Event, strings.Join(src, ","), t.Dst, width, "", t.When)
		}
	default:
		return fmt.Errorf("%w %q (want mermaid, dot or table)", ErrFormat, string(f))
	}
	if _, err := io.WriteString(w, sb.String()); err != nil {
		return fmt.Errorf("fsm: write diagram: %w", err)
	}
	return nil
}

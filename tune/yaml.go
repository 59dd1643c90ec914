package tune

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// FormatValue writes a weight for YAML with 5 significant digits, always as
// a floating-point literal (with a decimal point), so that SpaceOfYAML
// discovers it again.
func FormatValue(v float64) string {
	if v == 0 {
		return "0.0"
	}
	digits := 5 - int(math.Floor(math.Log10(math.Abs(v)))) - 1
	if digits < 1 {
		digits = 1
	}
	if digits > 12 {
		return strconv.FormatFloat(v, 'g', 5, 64)
	}
	s := strconv.FormatFloat(v, 'f', digits, 64)
	s = strings.TrimRight(s, "0")
	if strings.HasSuffix(s, ".") {
		s += "0"
	}
	return s
}

// yamlLine matches a block-mapping line: indentation, key, the rest.
var yamlLine = regexp.MustCompile(`^(\s*)([A-Za-z0-9_\-]+):(.*)$`)

// SetValues rewrites YAML text so that every dotted key of values holds the
// given number, keeping the file's comments and layout: the value of an
// existing key is replaced in place (its trailing comment kept), a missing
// key is added at the end of its parent mapping (or of the file). The
// rewrite works on block mappings, the shape of Kaisen's config files; a
// file with flow mappings ("flee: {rate: 0}") is first rewritten in block
// style (blockStyle), so that a key inside one is found and never added a
// second time. Text that is not YAML, or whose document is not a mapping,
// is an error.
func SetValues(text string, values map[string]float64) (string, error) {
	text, err := blockStyle(text)
	if err != nil {
		return "", err
	}
	lines := strings.Split(text, "\n")
	type frame struct {
		indent int
		key    string
	}
	var stack []frame
	done := map[string]bool{}
	lastLine := map[string]int{} // parent path -> index of its last line
	for i, line := range lines {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		m := yamlLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		indent := len(m[1])
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		path := make([]string, 0, len(stack)+1)
		for _, f := range stack {
			path = append(path, f.key)
		}
		parent := strings.Join(path, ".")
		key := strings.Join(append(path, m[2]), ".")
		for p := parent; ; {
			lastLine[p] = i
			j := strings.LastIndexByte(p, '.')
			if p == "" {
				break
			}
			if j < 0 {
				p = ""
			} else {
				p = p[:j]
			}
		}
		value, comment := splitComment(m[3])
		if strings.TrimSpace(value) == "" && nestedBelow(lines, i, indent) {
			stack = append(stack, frame{indent: indent, key: m[2]})
			continue
		}
		v, ok := values[key]
		if !ok {
			if strings.TrimSpace(value) == "" {
				lastLine[key] = i // an empty section: missing keys go under it
			}
			continue
		}
		out := m[1] + m[2] + ": " + FormatValue(v)
		if comment != "" {
			col := len(line) - len(strings.TrimLeft(m[3][len(value):], " \t")) // where the comment started
			out += strings.Repeat(" ", max(1, col-len(out))) + comment
		}
		lines[i] = out
		done[key] = true
	}
	// Missing keys: insert after the last line of their parent, deepest first
	// in file order, or append a new block at the end.
	var missing []string
	for k := range values {
		if !done[k] {
			missing = append(missing, k)
		}
	}
	slices.Sort(missing)
	for _, k := range missing {
		parts := strings.Split(k, ".")
		// the longest existing parent
		n := len(parts) - 1
		for n > 0 {
			if _, ok := lastLine[strings.Join(parts[:n], ".")]; ok {
				break
			}
			n--
		}
		var add []string
		for d := n; d < len(parts); d++ {
			l := strings.Repeat("  ", d) + parts[d] + ":"
			if d == len(parts)-1 {
				l += " " + FormatValue(values[k])
			}
			add = append(add, l)
		}
		at := len(lines)
		if idx, ok := lastLine[strings.Join(parts[:n], ".")]; ok && n > 0 {
			at = idx + 1
		} else {
			// append before trailing empty lines
			for at > 0 && strings.TrimSpace(lines[at-1]) == "" {
				at--
			}
		}
		lines = append(lines[:at], append(add, lines[at:]...)...)
		// shift recorded line numbers
		for p, idx := range lastLine {
			if idx >= at {
				lastLine[p] = idx + len(add)
			}
		}
		for d := n; d < len(parts); d++ {
			lastLine[strings.Join(parts[:d+1], ".")] = at + d - n
		}
		lastLine[strings.Join(parts[:n], ".")] = at + len(add) - 1
	}
	out := strings.Join(lines, "\n")
	if !strings.HasSuffix(out, "\n") {
		out += "\n"
	}
	return out, nil
}

// blockStyle returns text ready for SetValues' line-by-line rewrite: text
// itself when it is a block mapping (or holds no document), its comment
// lines alone when its document is null ("~"), and the YAML re-encoded in
// block style (two-space indent, comments kept where the encoder can place
// them) when it has flow mappings. A document that is not a mapping is an
// error.
func blockStyle(text string) (string, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return "", fmt.Errorf("tune: parse YAML: %w", err)
	}
	if len(doc.Content) == 0 {
		return text, nil
	}
	root := doc.Content[0]
	switch {
	case root.Kind == yaml.ScalarNode && root.Tag == "!!null":
		var kept []string
		for _, line := range strings.Split(text, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "#") {
				kept = append(kept, line)
			}
		}
		return strings.Join(kept, "\n"), nil
	case root.Kind != yaml.MappingNode:
		return "", fmt.Errorf("tune: YAML: want a mapping of sections at the top, got %s", root.Tag)
	}
	flow := false
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.MappingNode && n.Style&yaml.FlowStyle != 0 {
			n.Style &^= yaml.FlowStyle
			flow = true
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(&doc)
	if !flow {
		return text, nil
	}
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return "", fmt.Errorf("tune: rewrite YAML in block style: %w", err)
	}
	if err := enc.Close(); err != nil {
		return "", fmt.Errorf("tune: rewrite YAML in block style: %w", err)
	}
	return b.String(), nil
}

// nestedBelow reports whether the next line of lines after i that holds
// something (not blank, not a comment) is indented deeper than indent: the
// key of line i opens a mapping, and is not a key with an empty (null)
// value.
func nestedBelow(lines []string, i, indent int) bool {
	for _, l := range lines[i+1:] {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		return len(l)-len(strings.TrimLeft(l, " ")) > indent
	}
	return false
}

// splitComment separates a YAML scalar from a trailing " # comment".
func splitComment(s string) (value, comment string) {
	inSingle, inDouble := false, false
	for i, r := range s {
		switch r {
		case '\'':
			if !inDouble {
				inSingle = !inSingle
			}
		case '"':
			if !inSingle {
				inDouble = !inDouble
			}
		case '#':
			if !inSingle && !inDouble && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t') {
				return strings.TrimRight(s[:i], " \t"), s[i:]
			}
		}
	}
	return strings.TrimRight(s, " \t"), ""
}

// Header builds the comment block that heads a tuned YAML file: one "# "
// line per entry of lines.
func Header(lines ...string) string {
	var b strings.Builder
	for _, l := range lines {
		fmt.Fprintf(&b, "# %s\n", l)
	}
	return b.String()
}

package config

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/spf13/viper"
	"go.yaml.in/yaml/v3"
)

// maxBlameLines bounds the files whose YAML errors are blamed line by
// line (each line costs a parse of the lines before it).
const maxBlameLines = 5000

// yamlErrRE is a YAML parser's message: its line and what is wrong.
var yamlErrRE = regexp.MustCompile(`yaml: line (\d+): (.*)$`)

// yamlError is a file's YAML syntax error as a person reads it: the line
// that is wrong, and what is wrong with it. The YAML parser reports some
// errors at the line where the block around them starts ("did not find
// expected '-' indicator" at the list's first line, however far below
// the wrong indentation is); the wrong line is the first one the text
// cannot be cut after without that error. Any other error is read's as it
// is.
func yamlError(text string, read error) error {
	var pe viper.ConfigParseError
	if !errors.As(read, &pe) {
		return flat{read}
	}
	m := yamlErrRE.FindStringSubmatch(flat{read}.Error())
	if m == nil {
		return flat{read}
	}
	reported, _ := strconv.Atoi(m[1])
	line := blameLine(text, m[2])
	switch {
	case line == 0 || line == reported:
		return fmt.Errorf("line %d: %s", reported, m[2])
	case line > reported:
		return fmt.Errorf("line %d: %s (the YAML parser says line %d, where the block around it starts)", line, m[2], reported)
	}
	return fmt.Errorf("line %d: %s", reported, m[2])
}

// blameLine is the first line n of text such that its first n lines give
// the YAML error msg, 0 when none does (or the text is too long to try).
func blameLine(text, msg string) int {
	lines := strings.SplitAfter(text, "\n")
	if len(lines) > maxBlameLines {
		return 0
	}
	var prefix strings.Builder
	for n, l := range lines {
		prefix.WriteString(l)
		var v any
		err := yaml.Unmarshal([]byte(prefix.String()), &v)
		if err != nil && strings.HasSuffix(err.Error(), msg) {
			return n + 1
		}
	}
	return 0
}

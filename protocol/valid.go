package protocol

import "fmt"

// MaxNesting is the deepest nesting of arrays and objects a line may have.
// Within it, any valid JSON is accepted wherever the protocol tolerates a
// value it does not read (an unknown key of an action): unlike
// encoding/json, whose limit of 10,000 made valid lines fail, the check
// keeps no call stack, only one byte per open bracket, so a line costs at
// most MaxNesting bytes besides itself (and the server's
// limits.max_line_bytes bounds the line first).
const MaxNesting = 1 << 20

// errTooDeep is the syntax error of a line nested deeper than MaxNesting.
var errTooDeep = fmt.Errorf("nested deeper than %d arrays and objects", MaxNesting)

// validJSON reports whether data is exactly one JSON value (RFC 8259), with
// surrounding white space: the answer of json.Valid, without recursion and
// without its depth limit. err is errTooDeep for a value nested deeper than
// MaxNesting, else nil. It does not check UTF-8 (object does).
func validJSON(data []byte) (ok bool, err error) {
	var stack []byte // the open '{' and '['
	i := skipSpace(data, 0)
	for {
		// A value starts at i.
		if i >= len(data) {
			return false, nil
		}
		switch c := data[i]; {
		case c == '{' || c == '[':
			if len(stack) == MaxNesting {
				return false, errTooDeep
			}
			i = skipSpace(data, i+1)
			if i < len(data) && data[i] == c+2 { // '{'+2 == '}', '['+2 == ']'
				i++
				break
			}
			stack = append(stack, c)
			if c == '{' {
				if i = scanKey(data, i); i < 0 {
					return false, nil
				}
			}
			continue
		case c == '"':
			if i = scanString(data, i); i < 0 {
				return false, nil
			}
		case c == '-' || '0' <= c && c <= '9':
			if i = scanNumber(data, i); i < 0 {
				return false, nil
			}
		case c == 't':
			if i = scanLiteral(data, i, "true"); i < 0 {
				return false, nil
			}
		case c == 'f':
			if i = scanLiteral(data, i, "false"); i < 0 {
				return false, nil
			}
		case c == 'n':
			if i = scanLiteral(data, i, "null"); i < 0 {
				return false, nil
			}
		default:
			return false, nil
		}
		// A value ended before i: close what it ends, up to the next value.
		for {
			i = skipSpace(data, i)
			if len(stack) == 0 {
				return i == len(data), nil
			}
			if i >= len(data) {
				return false, nil
			}
			top := stack[len(stack)-1]
			if data[i] == top+2 {
				stack = stack[:len(stack)-1]
				i++
				continue
			}
			if data[i] != ',' {
				return false, nil
			}
			i = skipSpace(data, i+1)
			if top == '{' {
				if i = scanKey(data, i); i < 0 {
					return false, nil
				}
			}
			break
		}
	}
}

// scanKey scans `"key" :` and the space after it, returning the index of
// the value, or -1.
func scanKey(data []byte, i int) int {
	if i >= len(data) || data[i] != '"' {
		return -1
	}
	if i = scanString(data, i); i < 0 {
		return -1
	}
	i = skipSpace(data, i)
	if i >= len(data) || data[i] != ':' {
		return -1
	}
	return skipSpace(data, i+1)
}

// scanString returns the index after the valid string starting at
// data[i] == '"', or -1.
func scanString(data []byte, i int) int {
	for i++; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			return i + 1
		case c < 0x20:
			return -1
		case c == '\\':
			i++
			if i >= len(data) {
				return -1
			}
			switch data[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(data) {
					return -1
				}
				for _, h := range data[i+1 : i+5] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return -1
					}
				}
				i += 4
			default:
				return -1
			}
		}
	}
	return -1
}

// scanNumber returns the index after the valid number starting at data[i],
// or -1.
func scanNumber(data []byte, i int) int {
	digits := func(i int) int { // at least one digit
		j := i
		for j < len(data) && '0' <= data[j] && data[j] <= '9' {
			j++
		}
		if j == i {
			return -1
		}
		return j
	}
	if data[i] == '-' {
		i++
	}
	if i < len(data) && data[i] == '0' {
		i++
	} else if i = digits(i); i < 0 {
		return -1
	}
	if i < len(data) && data[i] == '.' {
		if i = digits(i + 1); i < 0 {
			return -1
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i = digits(i); i < 0 {
			return -1
		}
	}
	return i
}

// scanLiteral returns the index after lit at data[i], or -1.
func scanLiteral(data []byte, i int, lit string) int {
	if len(data)-i < len(lit) || string(data[i:i+len(lit)]) != lit {
		return -1
	}
	return i + len(lit)
}

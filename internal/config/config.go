// Package config loads Kaisen's YAML files into typed structs with viper:
// defaults come from the struct the caller passes in, every key is checked
// against the type of its field before decoding (a duration needs a unit, an
// integer is not a float, a key the struct does not declare is refused), and
// the result is validated. Every error is one line naming the file, the key
// and the value wanted, such as
//
//	config: server.yaml: limits.action_timeout: got 5, want a duration with a unit such as 5s
//
// The AI library (players, players/battleship, arena) does not read YAML:
// it declares typed structs with their defaults and Validate methods, and
// takes a loader (File) that overlays a file onto them.
package config

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/go-viper/mapstructure/v2"
	"github.com/spf13/viper"
)

// ErrUnknownKey is wrapped by the error for a key the target struct does not declare.
var ErrUnknownKey = errors.New("unknown key")

// ErrType is wrapped by the error for a value of the wrong type (a number
// where a duration is wanted, a float where an integer is wanted, ...).
var ErrType = errors.New("wrong type")

// ErrInvalid is matched by every error of Load and LoadString: the file is
// missing, unreadable, not YAML, or has a bad key or value. The command line
// reports it as a usage error.
var ErrInvalid = errors.New("invalid config")

// invalid marks err as an ErrInvalid error (its message unchanged).
type invalid struct{ err error }

func (e invalid) Error() string   { return e.err.Error() }
func (e invalid) Unwrap() []error { return []error{e.err, ErrInvalid} }

// Validator is implemented by configs that check their own ranges.
type Validator interface {
	Validate() error
}

// Load reads the YAML file at path into out, a pointer to a struct already
// holding the defaults (fields are named by `mapstructure` tags). Keys absent
// from the file keep their defaults; a list or map in the file replaces the
// default as a whole; a key the struct does not declare or a value of the
// wrong type is an error naming it; afterwards out.Validate() runs when out
// has one.
func Load(path string, out any) error {
	v := viper.New()
	v.SetConfigFile(path)
	v.SetConfigType("yaml")
	if err := v.ReadInConfig(); err != nil {
		var pe viper.ConfigParseError
		if text, rerr := os.ReadFile(path); rerr == nil && errors.As(err, &pe) {
			return invalid{fmt.Errorf("config: %s: %w", path, yamlError(string(text), err))}
		}
		return invalid{fmt.Errorf("config: read %s: %w", path, flat{err})}
	}
	return decode(path, v.AllSettings(), out)
}

// LoadString is Load for YAML text (tests, flags); name labels errors.
func LoadString(name, yamlText string, out any) error {
	v := viper.New()
	v.SetConfigType("yaml")
	if err := v.ReadConfig(strings.NewReader(yamlText)); err != nil {
		return invalid{fmt.Errorf("config: parse %s: %w", name, yamlError(yamlText, err))}
	}
	return decode(name, v.AllSettings(), out)
}

// LoadOr returns defaults overlaid by the YAML file at path as Load does,
// or defaults unchanged when path is "".
func LoadOr[T any](path string, defaults T) (T, error) {
	if path == "" {
		return defaults, nil
	}
	if err := Load(path, &defaults); err != nil {
		var zero T
		return zero, err
	}
	return defaults, nil
}

// File returns a loader of the YAML file at path for the AI library
// (players.New, bsplayers.New): called with a pointer to a config struct
// holding the defaults, it overlays the file as Load does. File("") is nil,
// which the library reads as "the built-in defaults".
func File(path string) func(into any) error {
	if path == "" {
		return nil
	}
	return func(into any) error { return Load(path, into) }
}

func decode(name string, settings map[string]any, out any) error {
	if err := decodeValid(name, settings, out); err != nil {
		return invalid{err}
	}
	return nil
}

func decodeValid(name string, settings map[string]any, out any) error {
	rv := reflect.ValueOf(out)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("config: %s: decode into %T: want a non-nil pointer", name, out)
	}
	if err := check("", settings, rv.Elem().Type()); err != nil {
		return fmt.Errorf("config: %s: %w", name, err)
	}
	dec, err := mapstructure.NewDecoder(&mapstructure.DecoderConfig{
		Result:     out,
		ZeroFields: true, // a list or map in the file replaces the default
		DecodeHook: mapstructure.ComposeDecodeHookFunc(
			replaceInterface,
			mapstructure.StringToTimeDurationHookFunc(),
		),
	})
	if err != nil {
		return fmt.Errorf("config: %s: %w", name, err)
	}
	if err := dec.Decode(settings); err != nil {
		return fmt.Errorf("config: %s: %w", name, flat{err})
	}
	if val, ok := out.(Validator); ok {
		if err := val.Validate(); err != nil {
			return fmt.Errorf("config: %s: %w", name, flat{err})
		}
	}
	return nil
}

// replaceInterface makes a value in the file replace an interface field's
// default whatever its type (mapstructure would otherwise decode a list into
// a default string and fail).
func replaceInterface(from, to reflect.Value) (any, error) {
	if to.Kind() == reflect.Interface && to.CanSet() && !to.IsNil() {
		to.Set(reflect.Zero(to.Type()))
	}
	return from.Interface(), nil
}

// flat shows an error on one line (YAML, mapstructure and errors.Join
// write several): the lines are joined by "; ".
type flat struct{ err error }

func (f flat) Error() string {
	var lines []string
	for l := range strings.Lines(f.err.Error()) {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			lines = append(lines, strings.TrimSuffix(l, ":"))
		}
	}
	return strings.Join(lines, "; ")
}

func (f flat) Unwrap() error { return f.err }

var durationType = reflect.TypeFor[time.Duration]()

// check walks value along type t (the field at key) and reports the first
// key whose value does not fit its field, or that the struct lacks.
func check(key string, value any, t reflect.Type) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if value == nil {
		return nil
	}
	if t == durationType {
		s, ok := value.(string)
		if !ok {
			return typeError(key, value, "a duration with a unit such as 5s")
		}
		if _, err := time.ParseDuration(s); err != nil {
			return typeError(key, value, "a duration with a unit such as 5s")
		}
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		m, ok := value.(map[string]any)
		if !ok {
			return typeError(key, value, "a mapping of keys")
		}
		fields := structFields(t)
		for _, k := range slices.Sorted(maps.Keys(m)) {
			ft, ok := fields[strings.ToLower(k)]
			if !ok {
				return fmt.Errorf("%w %q", ErrUnknownKey, join(key, k))
			}
			if err := check(join(key, k), m[k], ft); err != nil {
				return err
			}
		}
	case reflect.Map:
		m, ok := value.(map[string]any)
		if !ok {
			return typeError(key, value, "a mapping")
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if err := check(join(key, k), m[k], t.Elem()); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		l, ok := value.([]any)
		if !ok {
			return typeError(key, value, "a list")
		}
		if t.Kind() == reflect.Array && len(l) != t.Len() {
			return typeError(key, value, fmt.Sprintf("a list of %d", t.Len()))
		}
		for i, v := range l {
			if err := check(fmt.Sprintf("%s[%d]", key, i), v, t.Elem()); err != nil {
				return err
			}
		}
	case reflect.Bool:
		if _, ok := value.(bool); !ok {
			return typeError(key, value, "true or false")
		}
	case reflect.String:
		if _, ok := value.(string); !ok {
			return typeError(key, value, `a string (quote it: "...")`)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := integer(value)
		if !ok {
			return typeError(key, value, "an integer")
		}
		bits := t.Bits()
		if n.neg && n.abs > 1<<(bits-1) || !n.neg && n.abs > 1<<(bits-1)-1 {
			return typeError(key, value, fmt.Sprintf("an integer that fits %d bits", bits))
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, ok := integer(value)
		if !ok || n.neg {
			return typeError(key, value, "a non-negative integer")
		}
		if bits := t.Bits(); bits < 64 && n.abs >= 1<<bits {
			return typeError(key, value, fmt.Sprintf("an integer below 2^%d", bits))
		}
	case reflect.Float32, reflect.Float64:
		switch f := value.(type) {
		case int, int64, uint64, int32, uint32:
		case float64:
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return typeError(key, value, "a finite number")
			}
		default:
			return typeError(key, value, "a number")
		}
	}
	return nil
}

// magnitude is an integer as sign and absolute value (YAML integers may be
// int, int64 or uint64).
type magnitude struct {
	neg bool
	abs uint64
}

func integer(v any) (magnitude, bool) {
	switch n := v.(type) {
	case int:
		return integer(int64(n))
	case int32:
		return integer(int64(n))
	case int64:
		if n < 0 {
			return magnitude{true, uint64(-(n + 1)) + 1}, true
		}
		return magnitude{false, uint64(n)}, true
	case uint32:
		return magnitude{false, uint64(n)}, true
	case uint64:
		return magnitude{false, n}, true
	}
	return magnitude{}, false
}

func typeError(key string, value any, want string) error {
	got := fmt.Sprint(value)
	if s, ok := value.(string); ok {
		got = fmt.Sprintf("%q", s)
	}
	if len(got) > 40 {
		got = got[:37] + "..."
	}
	return &TypeError{Key: key, Got: got, Want: want}
}

// TypeError is a value of the wrong type at a key; it matches ErrType.
type TypeError struct {
	Key  string // dotted, with [i] for list elements: limits.action_timeout, fleet[2]
	Got  string // the value as written (shortened)
	Want string // what the key takes: "a duration with a unit such as 5s", ...
}

func (e *TypeError) Error() string { return fmt.Sprintf("%s: got %s, want %s", e.Key, e.Got, e.Want) }

// Is reports whether target is ErrType.
func (e *TypeError) Is(target error) bool { return target == ErrType }

func join(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

// structFields maps the lower-cased mapstructure names of t's fields
// (embedded ",squash" structs flattened) to their types.
func structFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("mapstructure"), ",")
		if name == "-" {
			continue
		}
		if strings.Contains(opts, "squash") && f.Type.Kind() == reflect.Struct {
			for k, v := range structFields(f.Type) {
				out[k] = v
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[strings.ToLower(name)] = f.Type
	}
	return out
}

package tune

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/viper"
)

// ErrSpace reports a parameter space that cannot be built or used.
var ErrSpace = errors.New("tune: bad parameter space")

// Param is one tunable weight: its dotted YAML key, its range and its
// default (the starting point of a run).
type Param struct {
	Key      string  `json:"key"`
	Min      float64 `json:"min"`
	Max      float64 `json:"max"`
	Default  float64 `json:"default"`
	Explicit bool    `json:"explicit,omitempty"` // the range came from a tune tag
}

// Space is an ordered list of parameters: a box in which the optimiser works.
// The optimiser itself sees every parameter scaled to [0, 1].
type Space []Param

// Keys lists the parameter keys in order.
func (s Space) Keys() []string {
	keys := make([]string, len(s))
	for i, p := range s {
		keys[i] = p.Key
	}
	return keys
}

// Values names the values of x (in parameter units, in s's order) by key.
func (s Space) Values(x []float64) map[string]float64 {
	values := make(map[string]float64, len(s))
	for i, p := range s {
		values[p.Key] = x[i]
	}
	return values
}

// Defaults is the vector of default values.
func (s Space) Defaults() []float64 {
	x := make([]float64, len(s))
	for i, p := range s {
		x[i] = p.Default
	}
	return x
}

// Normalize maps x from parameter units to [0, 1] per coordinate (clamped).
func (s Space) Normalize(x []float64) []float64 {
	u := make([]float64, len(s))
	for i, p := range s {
		if p.Max > p.Min {
			u[i] = clamp01((x[i] - p.Min) / (p.Max - p.Min))
		}
	}
	return u
}

// Denormalize maps u from [0, 1] (clamped) back to parameter units.
func (s Space) Denormalize(u []float64) []float64 {
	x := make([]float64, len(s))
	for i, p := range s {
		x[i] = p.Min + clamp01(u[i])*(p.Max-p.Min)
	}
	return x
}

// Select keeps the parameters named in keys, in the order of keys. An
// unknown key is an error listing the known ones.
func (s Space) Select(keys []string) (Space, error) {
	var out Space
	for _, k := range keys {
		i := slices.IndexFunc(s, func(p Param) bool { return p.Key == k })
		if i < 0 {
			return nil, fmt.Errorf("%w: no tunable key %q (known: %s)", ErrSpace, k, strings.Join(s.Keys(), ", "))
		}
		out = append(out, s[i])
	}
	return out, nil
}

// Validate checks that every range is non-empty and holds its default.
func (s Space) Validate() error {
	if len(s) == 0 {
		return fmt.Errorf("%w: no tunable parameters", ErrSpace)
	}
	seen := map[string]bool{}
	for _, p := range s {
		if seen[p.Key] {
			return fmt.Errorf("%w: key %q appears twice", ErrSpace, p.Key)
		}
		seen[p.Key] = true
		if !(p.Max > p.Min) || math.IsInf(p.Max-p.Min, 0) {
			return fmt.Errorf("%w: %s has an empty range [%g, %g]", ErrSpace, p.Key, p.Min, p.Max)
		}
		if p.Default < p.Min || p.Default > p.Max {
			return fmt.Errorf("%w: %s default %g is outside [%g, %g]", ErrSpace, p.Key, p.Default, p.Min, p.Max)
		}
	}
	return nil
}

func clamp01(v float64) float64 {
	switch {
	case v < 0 || math.IsNaN(v):
		return 0
	case v > 1:
		return 1
	}
	return v
}

// defaultRange is the range of a weight without a tune tag: [0, 2·v] for a
// positive default, [2·v, 0] for a negative one, [0, 1] for zero.
func defaultRange(v float64) (lo, hi float64) {
	switch {
	case v > 0:
		return 0, 2 * v
	case v < 0:
		return 2 * v, 0
	}
	return 0, 1
}

// SpaceOf discovers the tunable weights of a config struct (cfg is a struct
// or a pointer to one, holding the defaults): every float64 field with a
// `mapstructure` tag, nested structs giving dotted keys. The optional tag
// `tune:"min,max"` sets the range and `tune:"-"` excludes the field; an
// untagged field ranges over [0, 2·default] ([0, 1] when the default is 0).
func SpaceOf(cfg any) (Space, error) {
	v := reflect.ValueOf(cfg)
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil, fmt.Errorf("%w: nil config", ErrSpace)
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return nil, fmt.Errorf("%w: config is a %s, not a struct", ErrSpace, v.Kind())
	}
	var s Space
	if err := walk(v, "", &s); err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

func walk(v reflect.Value, prefix string, s *Space) error {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("mapstructure"), ",")
		if name == "" && opts == "squash" && f.Type.Kind() == reflect.Struct {
			if err := walk(v.Field(i), prefix, s); err != nil { // an embedded config: its keys are the parent's
				return err
			}
			continue
		}
		if name == "" || name == "-" || !f.IsExported() {
			continue
		}
		key := name
		if prefix != "" {
			key = prefix + "." + name
		}
		fv := v.Field(i)
		switch f.Type.Kind() {
		case reflect.Struct:
			if err := walk(fv, key, s); err != nil {
				return err
			}
		case reflect.Float64:
			tag, tagged := f.Tag.Lookup("tune")
			if tag == "-" {
				continue
			}
			p := Param{Key: key, Default: fv.Float()}
			if tagged {
				lo, hi, ok := strings.Cut(tag, ",")
				var err1, err2 error
				p.Min, err1 = strconv.ParseFloat(strings.TrimSpace(lo), 64)
				p.Max, err2 = strconv.ParseFloat(strings.TrimSpace(hi), 64)
				if !ok || err1 != nil || err2 != nil {
					return fmt.Errorf("%w: field %s: tune tag %q, want \"min,max\" or \"-\"", ErrSpace, f.Name, tag)
				}
				p.Explicit = true
			} else {
				p.Min, p.Max = defaultRange(p.Default)
			}
			*s = append(*s, p)
		}
	}
	return nil
}

// SpaceOfYAML discovers tunable weights in YAML text when no config struct is
// known: every floating-point scalar (a value written with a decimal point or
// an exponent, so integers such as sample counts stay fixed) becomes a
// parameter with the untagged range rule. Keys are sorted.
func SpaceOfYAML(name, text string) (Space, error) {
	v := viper.New()
	v.SetConfigType("yaml")
	if err := v.ReadConfig(strings.NewReader(text)); err != nil {
		return nil, fmt.Errorf("tune: parse %s: %w", name, err)
	}
	var s Space
	for _, key := range v.AllKeys() {
		f, ok := v.Get(key).(float64)
		if !ok {
			continue
		}
		lo, hi := defaultRange(f)
		s = append(s, Param{Key: key, Min: lo, Max: hi, Default: f})
	}
	slices.SortFunc(s, func(a, b Param) int { return strings.Compare(a.Key, b.Key) })
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return s, nil
}

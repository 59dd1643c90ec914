// Package config loads Kaisen's YAML files into typed structs with viper:
// defaults come from the struct the caller passes in, keys the struct does not
// declare are rejected by name, and the result is validated.
package config

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/go-viper/mapstructure/v2"
	"github.com/spf13/viper"
)

// ErrUnknownKey is wrapped by the error for a key the target struct does not declare.
var ErrUnknownKey = errors.New("unknown key")

// Validator is implemented by configs that check their own ranges.
type Validator interface {
	Validate() error
}

// Load reads the YAML file at path into out, a pointer to a struct already
// holding the defaults (fields are named by `mapstructure` tags). Keys absent
// from the file keep their defaults; a key the struct does not declare is an
// error naming it; afterwards out.Validate() runs when out has one.
func Load(path string, out any) error {
	v := viper.New()
	v.SetConfigFile(path)
	v.SetConfigType("yaml")
	if err := v.ReadInConfig(); err != nil {
		return fmt.Errorf("config: read %s: %w", path, err)
	}
	return decode(path, v.AllSettings(), out)
}

// LoadString is Load for YAML text (tests, flags); name labels errors.
func LoadString(name, yamlText string, out any) error {
	v := viper.New()
	v.SetConfigType("yaml")
	if err := v.ReadConfig(strings.NewReader(yamlText)); err != nil {
		return fmt.Errorf("config: parse %s: %w", name, err)
	}
	return decode(name, v.AllSettings(), out)
}

func decode(name string, settings map[string]any, out any) error {
	var md mapstructure.Metadata
	dec, err := mapstructure.NewDecoder(&mapstructure.DecoderConfig{
		Metadata:   &md,
		Result:     out,
		DecodeHook: mapstructure.StringToTimeDurationHookFunc(),
	})
	if err != nil {
		return fmt.Errorf("config: %s: %w", name, err)
	}
	if err := dec.Decode(settings); err != nil {
		return fmt.Errorf("config: %s: %w", name, err)
	}
	if len(md.Unused) > 0 {
		keys := slices.Clone(md.Unused)
		slices.Sort(keys)
		for i, k := range keys {
			keys[i] = fmt.Sprintf("%q", k)
		}
		return fmt.Errorf("config: %s: %w %s", name, ErrUnknownKey, strings.Join(keys, ", "))
	}
	if val, ok := out.(Validator); ok {
		if err := val.Validate(); err != nil {
			return fmt.Errorf("config: %s: %w", name, err)
		}
	}
	return nil
}

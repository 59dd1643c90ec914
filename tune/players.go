package tune

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/kaisen-ai/kaisen/internal/config"
	"github.com/kaisen-ai/kaisen/players"
	abplayers "github.com/kaisen-ai/kaisen/players/abilities"
)

// configs maps a registered player to a fresh copy of its config struct
// holding the defaults. Players listed here are tuned through SpaceOf (their
// `tune` tags give the ranges); any other player with a YAML config through
// SpaceOfYAML.
var configs = map[string]func() any{
	"admiral":      func() any { c := players.DefaultAdmiralConfig(); return &c },
	"stateplayer2": func() any { c := players.DefaultStatePlayer2Config(); return &c },
	"state":        func() any { c := players.DefaultStatePlayerConfig(); return &c },
	"simple":       func() any { c := players.DefaultSimpleConfig(); return &c },
	"joint-greedy": func() any { c := players.DefaultJointGreedyConfig(); return &c },
	"ab-density":   func() any { c := abplayers.DefaultBotConfig(); return &c },
	"ab-belief":    func() any { c := abplayers.DefaultBeliefConfig(); return &c },
	"ab-plain":     func() any { c := abplayers.DefaultPlainConfig(); return &c },
}

// SpaceFor discovers the tunable weights of player whose config is the YAML
// text base (named name in errors): the player's config struct loaded with
// base, through SpaceOf, when the struct is known; else the floating-point
// values of base, through SpaceOfYAML. The defaults of the space are the
// values of base.
func SpaceFor(player, name, base string) (Space, error) {
	mk, ok := configs[player]
	if !ok {
		return SpaceOfYAML(name, base)
	}
	cfg := mk()
	if err := config.LoadString(name, base, cfg); err != nil {
		return nil, fmt.Errorf("tune: %w", err)
	}
	return SpaceOf(cfg)
}

// DefaultYAML renders the built-in defaults of a known player's config
// struct as YAML (no comments): the base of a run when the player's config
// file cannot be read. ok is false for a player without a known struct.
func DefaultYAML(player string) (text string, ok bool) {
	mk, ok := configs[player]
	if !ok {
		return "", false
	}
	var b strings.Builder
	writeYAML(&b, reflect.ValueOf(mk()).Elem(), 0)
	return b.String(), true
}

func writeYAML(b *strings.Builder, v reflect.Value, depth int) {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("mapstructure"), ",")
		if name == "" || name == "-" || !f.IsExported() {
			continue
		}
		indent := strings.Repeat("  ", depth)
		fv := v.Field(i)
		switch fv.Kind() {
		case reflect.Struct:
			fmt.Fprintf(b, "%s%s:\n", indent, name)
			writeYAML(b, fv, depth+1)
		case reflect.Float64:
			fmt.Fprintf(b, "%s%s: %s\n", indent, name, FormatValue(fv.Float()))
		case reflect.String:
			fmt.Fprintf(b, "%s%s: %q\n", indent, name, fv.String())
		default:
			fmt.Fprintf(b, "%s%s: %v\n", indent, name, fv.Interface())
		}
	}
}

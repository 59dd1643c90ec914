package tune

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/kaisen-ai/kaisen/internal/config"
)

// errProbed stops the build of a player once Probe has its config struct.
var errProbed = errors.New("tune: config probed")

// Probe returns a fresh copy of the config struct of player, holding its
// built-in defaults, or nil for a player without one (one that takes no
// settings). It asks the game: a registry entry builds a player by calling
// its Loader with a pointer to its config struct holding the defaults
// (roster.Configure), and the Loader Probe hands to a the player through
// keeps that pointer and stops the build. So every game's players are
// tuned through their config structs (SpaceOf, the tune tags) without a
// list of them here.
func Probe(a Arena, player string) any {
	var got any
	load := func(into any) error {
		if got == nil {
			got = into
		}
		return errProbed
	}
	if _, err := a(Entrant{Name: player, Player: player, Load: load}, Entrant{Name: player, Player: player}); !errors.Is(err, errProbed) {
		return nil
	}
	if v := reflect.ValueOf(got); v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	return got
}

// SpaceFor discovers the tunable weights of a player whose config is the
// YAML text base (named name in errors): cfg, the player's config struct
// (Probe), loaded with base, through SpaceOf; when cfg is nil, the
// floating-point values of base, through SpaceOfYAML. The defaults of the
// space are the values of base.
func SpaceFor(cfg any, name, base string) (Space, error) {
	if cfg == nil {
		return SpaceOfYAML(name, base)
	}
	if err := config.LoadString(name, base, cfg); err != nil {
		return nil, fmt.Errorf("tune: %w", err)
	}
	return SpaceOf(cfg)
}

// DefaultYAML renders the values of a config struct (a pointer to it, as
// Probe returns) as YAML without comments: the base of a run when the
// player's config file cannot be read.
func DefaultYAML(cfg any) string {
	var b strings.Builder
	writeYAML(&b, reflect.ValueOf(cfg).Elem(), 0)
	return b.String()
}

func writeYAML(b *strings.Builder, v reflect.Value, depth int) {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("mapstructure"), ",")
		if name == "" && opts == "squash" && f.Type.Kind() == reflect.Struct {
			writeYAML(b, v.Field(i), depth)
			continue
		}
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

package players_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players"
)

func ExampleStatePlayer2() {
	r := submarine.DefaultRules()
	p, err := players.NewStatePlayer2(r, players.DefaultStatePlayer2Config(), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, c := range p.Place() {
		fmt.Printf("%s on %s\n", r.Fleet[i].Name, r.CellName(c))
	}
	a := p.Act()
	d := p.Explain()
	fmt.Println(a.Kind, r.CellName(a.To), "in state", d.State)
	fmt.Println(d.Candidates[0])
	// Output:
	// w on E4
	// c on A5
	// s on B1
	// attack B2 in state sakuteki
	// {attack B2 28.5}
}

package fsm_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/kaisen-ai/kaisen/fsm"
)

func ExampleMachine() {
	ctx := context.Background()
	m := fsm.New()
	fmt.Println(m.State(), m.Msg())

	// An enemy ship is pinned on cell 12: attack it.
	_ = m.Fire(ctx, fsm.Pinned, fsm.CellMsg(12))
	fmt.Println(m.State(), m.Msg())

	// Another one is pinned: a self-transition with a new target is a success.
	err := m.Fire(ctx, fsm.Pinned, fsm.CellMsg(3))
	fmt.Println(m.State(), m.Msg(), err)

	// Escaped is only allowed in escape.
	err = m.Fire(ctx, fsm.Escaped, fsm.NoMsg)
	fmt.Println(err)
	// Output:
	// sakuteki -
	// attack cell 12
	// attack cell 3 <nil>
	// fsm: event not allowed in the current state: escaped in attack: event escaped inappropriate in current state attack
}

func ExampleDiagram() {
	out, _ := fsm.Diagram(fsm.Mermaid)
	lines := strings.SplitAfter(out, "\n")
	fmt.Print(strings.Join(lines[:3], ""))
	// Output:
	// stateDiagram-v2
	//     [*] --> sakuteki
	//     sakuteki --> attack: pinned
}

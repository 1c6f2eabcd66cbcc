package wire_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/engine/wire"
)

// Split hands the allowed calls on and turns every refused one into the
// tool result the model reads, here as OpenAI Responses API items. A
// refused call whose id is not a string cannot be answered: the error
// says which, and the runtime drops that call from the turn.
func ExampleSplit() {
	ctx := context.Background()
	e, err := engine.New(ctx)
	if err != nil {
		panic(err)
	}
	d, err := e.Decide(ctx, engine.JSON([]byte(`{
		"declared": [{"name": "read_file"}],
		"calls": [{"id": "call_1", "name": "read_file"}, {"id": "call_2", "name": "send_email"}, {"id": 3, "name": "read_file"}]
	}`)))

	if err != nil {
		panic(err)
	}
	allowed, refused, err := wire.Split(wire.OpenAIResponses, d)
	for _, c := range allowed {
		fmt.Println("run", c.ID)
	}
	for _, r := range refused {
		item := r.(*wire.OpenAIFunctionCallOutput) // send it back as an input item
		fmt.Println(item.Type, item.CallID)
	}
	var callErr *wire.CallError
	if errors.As(err, &callErr) && errors.Is(err, wire.ErrInvalidID) {
		fmt.Println("drop call", callErr.Index)
	}
	// Output:
	// run call_1
	// function_call_output call_2
	// drop call 2
}

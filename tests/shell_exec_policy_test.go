package tests

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
)

// shellTool is the shell tool the harness's layers rule over (its
// command argument is named by the shipped rule_arguments).
const shellTool = "run_shell_command"

// shellRule is a command_prefix rule for the shell tool.
func shellRule(prefix string) map[string]any {
	return map[string]any{"tool": shellTool, "command_prefix": prefix}
}

// shellLayers is how the harness asks the policy about a command, by
// the property it holds.
type shellLayer struct {
	kind   string // deny, ask or allow
	prefix string // the rule's command_prefix
}

// layer is the inline layer: a deny or ask rule beside a plain allow of
// the tool (so that nothing but the rule refuses), or an allow list of
// the one rule.
func (l shellLayer) layer() map[string]any {
	layer := map[string]any{"name": "harness"}
	switch l.kind {
	case "allow":
		layer["allow"] = []any{shellRule(l.prefix)}
	default:
		layer["allow"] = []any{shellTool}
		layer[l.kind] = []any{shellRule(l.prefix)}
	}
	return layer
}

func (l shellLayer) String() string {
	return fmt.Sprintf("%s {%q: %q, %q: %q}", l.kind, "tool", shellTool, "command_prefix", l.prefix)
}

// shellVerdict is what the policy said about one command under a layer.
type shellVerdict struct {
	Outcome engine.Outcome
	Reason  string
	Message string
}

func (v shellVerdict) String() string {
	if v.Reason == "" {
		return string(v.Outcome)
	}
	return fmt.Sprintf("%s (%s: %s)", v.Outcome, v.Reason, v.Message)
}

// shellDecider decides commands under a layer through the engine, in
// batches: one request per layer and chunk of commands.
type shellDecider struct {
	e     *engine.Engine
	chunk int
}

func newShellDecider(t *testing.T) *shellDecider {
	t.Helper()
	// No deadline of the engine's own: a batch on a busy machine may take
	// long, and a timeout is not what this test is about.
	opts := []engine.Option{engine.WithEvalTimeout(0)}
	if bundle := os.Getenv("TOOLEVAL_SHELL_EXEC_BUNDLE"); bundle != "" {
		// another policy (a directory or tarball), such as main's
		opts = append(opts, engine.WithBundle(bundle))
		t.Logf("the policy: %s", bundle)
	}
	e, err := engine.New(context.Background(), opts...)
	require.NoError(t, err)
	return &shellDecider{e: e, chunk: 256}
}

// decide returns the verdict on each command under layer, in order.
func (d *shellDecider) decide(t *testing.T, l shellLayer, commands []string) []shellVerdict {
	t.Helper()
	verdicts := make([]shellVerdict, 0, len(commands))
	for start := 0; start < len(commands); start += d.chunk {
		batch := commands[start:min(start+d.chunk, len(commands))]
		calls := make([]any, len(batch))
		for i, c := range batch {
			calls[i] = map[string]any{"id": fmt.Sprint(start + i), "name": shellTool, "args": map[string]any{"command": c}}
		}
		request := map[string]any{
			"declared": []any{map[string]any{"name": shellTool}},
			"layers":   []any{l.layer()},
			"calls":    calls,
		}
		decision, err := d.e.Decide(context.Background(), request)
		require.NoError(t, err, "%s", l)
		require.Empty(t, decision.Errors, "the layer %s is not valid", l)
		require.Len(t, decision.Decisions, len(batch))
		for _, c := range decision.Decisions {
			verdicts = append(verdicts, shellVerdict{Outcome: c.Outcome, Reason: c.Reason, Message: c.Message})
		}
	}
	return verdicts
}

// layerErrors are the codes of the configuration errors of layer (an
// allow rule the policy refuses to hold, such as one of a wrapper),
// decided on one call.
func (d *shellDecider) layerErrors(t *testing.T, l shellLayer) []string {
	t.Helper()
	decision, err := d.e.Decide(context.Background(), map[string]any{
		"declared": []any{map[string]any{"name": shellTool}},
		"layers":   []any{l.layer()},
		"calls":    []any{map[string]any{"id": "0", "name": shellTool, "args": map[string]any{"command": l.prefix}}},
	})
	require.NoError(t, err)
	codes := make([]string, len(decision.Errors))
	for i, p := range decision.Errors {
		codes[i] = p.Code()
	}
	return codes
}

package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/stretchr/testify/require"
)

// memoSession is a session on the benchmark workload's static part at 100
// declared tools: read_file and write_file have path arguments (there is
// a workspace), so their calls are not in the context's entries.
func memoSession(t *testing.T, e *Engine) *Session {
	t.Helper()
	static, _ := benchRequest(100)
	s, err := e.NewSession(context.Background(), static, WithPathResolution(false))
	require.NoError(t, err)
	return s
}

// decideCounted decides calls in s and returns the decision and how many
// expressions the policy evaluated for it.
func decideCounted(t *testing.T, s *Session, calls []Call) (*Decision, int64) {
	t.Helper()
	ctx, c := counting(context.Background())
	d, err := s.Decide(ctx, calls)
	require.NoError(t, err)
	return d, c.n.Load()
}

// oneShotOf is the one-shot decision of s's static part with calls.
func oneShotOf(t *testing.T, e *Engine, calls []Call) *Decision {
	t.Helper()
	static, _ := benchRequest(100)
	full := map[string]any{"calls": calls}
	for k, v := range static {
		full[k] = v
	}
	d, err := e.Decide(context.Background(), full)
	require.NoError(t, err)
	return d
}

// TestMemoAnswersWithoutEvaluating: a session remembers the policy's
// verdict of a call that is exactly {id, name} and not in its context's
// entries (an undeclared name, another spelling of a declared one, a
// declared tool with path arguments called without any), and answers the
// same names in a later batch, under other ids, without evaluating
// anything; a call with args is evaluated every time. Every decision is
// the one-shot decision.
func TestMemoAnswersWithoutEvaluating(t *testing.T) {
	e := newEngine(t)
	s := memoSession(t, e)
	first := []Call{{ID: "a", Name: "TOOL_2"}, {ID: "b", Name: "no_such_tool"}, {ID: "c", Name: "read_file"}, {ID: "d", Name: "tool_2"}}
	d, evaluated := decideCounted(t, s, first)
	require.Positive(t, evaluated, "the first batch goes to the policy")
	require.Equal(t, documentJSON(t, oneShotOf(t, e, first)), documentJSON(t, d))
	require.Equal(t, 0, d.fromMemo)
	require.Equal(t, 1, d.fromEntries, "tool_2 is in the entries")
	require.Equal(t, 3, s.state.Load().memo.len(), "TOOL_2, no_such_tool and read_file are remembered")

	again := []Call{{ID: "x", Name: "read_file"}, {ID: "y", Name: "no_such_tool"}, {ID: "z", Name: "TOOL_2"}}
	d, evaluated = decideCounted(t, s, again)
	require.Zero(t, evaluated, "every call of the second batch is answered from the memo")
	require.Equal(t, 3, d.fromMemo)
	require.Equal(t, documentJSON(t, oneShotOf(t, e, again)), documentJSON(t, d))

	withArgs := []Call{{ID: "p", Name: "read_file", Args: map[string]any{"path": "/etc/passwd"}}, {ID: "q", Name: "TOOL_2"}}
	d, evaluated = decideCounted(t, s, withArgs)
	require.Positive(t, evaluated, "a call with args goes to the policy")
	require.Equal(t, 1, d.fromMemo)
	require.Equal(t, []bool{false, true}, allowed(d))
	require.Equal(t, "path", d.Decisions[0].Reason)
	require.Equal(t, documentJSON(t, oneShotOf(t, e, withArgs)), documentJSON(t, d))

	other := []Call{{ID: "r", Name: "Read_File"}, {ID: "s", Name: "NO_SUCH_TOOL"}}
	d, evaluated = decideCounted(t, s, other)
	require.Positive(t, evaluated, "another spelling of a remembered name is not the remembered name")
	require.Zero(t, d.fromMemo)
	require.Equal(t, documentJSON(t, oneShotOf(t, e, other)), documentJSON(t, d))
}

// TestMemoIsBounded: the memo keeps at most memoCapacity names of at most
// memoNameBytes bytes; past them every call still gets the policy's
// verdict, evaluated.
func TestMemoIsBounded(t *testing.T) {
	e := newEngine(t, WithEvalTimeout(time.Minute)) // a batch of 4,106 calls, perhaps under -race
	s := memoSession(t, e)
	calls := make([]Call, memoCapacity+10)
	for i := range calls {
		calls[i] = Call{ID: fmt.Sprint(i), Name: fmt.Sprintf("undeclared_%d", i)}
	}
	_, err := s.Decide(context.Background(), calls)
	require.NoError(t, err)
	memo := s.state.Load().memo
	require.Equal(t, memoCapacity, memo.len(), "the memo stops when it is full")

	late := []Call{{ID: "a", Name: "undeclared_0"}, {ID: "b", Name: fmt.Sprintf("undeclared_%d", memoCapacity+5)}}
	d, evaluated := decideCounted(t, s, late)
	require.Positive(t, evaluated, "a name that came after the memo was full is evaluated")
	require.Equal(t, 1, d.fromMemo)
	require.Equal(t, documentJSON(t, oneShotOf(t, e, late)), documentJSON(t, d))

	s = memoSession(t, e)
	long := []Call{{ID: "a", Name: strings.Repeat("x", memoNameBytes)}, {ID: "b", Name: strings.Repeat("y", memoNameBytes+1)}}
	_, err = s.Decide(context.Background(), long)
	require.NoError(t, err)
	d, evaluated = decideCounted(t, s, long)
	require.Positive(t, evaluated, "a name longer than memoNameBytes is evaluated every time")
	require.Equal(t, 1, d.fromMemo, "a name of memoNameBytes bytes is remembered")
	require.Equal(t, 1, s.state.Load().memo.len())
	require.Equal(t, documentJSON(t, oneShotOf(t, e, long)), documentJSON(t, d))
}

// TestReloadDropsTheMemo: after the bundle is reloaded the session
// compiles its context again and starts with an empty memo: the names it
// remembered are evaluated by the new policy, then remembered again.
func TestReloadDropsTheMemo(t *testing.T) {
	e := newEngine(t)
	s := memoSession(t, e)
	calls := []Call{{ID: "a", Name: "TOOL_2"}, {ID: "b", Name: "no_such_tool"}}
	_, err := s.Decide(context.Background(), calls)
	require.NoError(t, err)
	d, evaluated := decideCounted(t, s, calls)
	require.Zero(t, evaluated)
	require.Equal(t, 2, d.fromMemo)
	before := s.state.Load().memo

	require.NoError(t, e.Reload(context.Background(), ""))
	d, evaluated = decideCounted(t, s, calls)
	require.Positive(t, evaluated, "the reloaded policy decides the names the old memo held")
	require.Zero(t, d.fromMemo)
	after := s.state.Load().memo
	require.NotSame(t, before, after, "a recompiled context has a memo of its own")
	require.Equal(t, 2, after.len())
	require.Equal(t, documentJSON(t, oneShotOf(t, e, calls)), documentJSON(t, d))

	d, evaluated = decideCounted(t, s, calls)
	require.Zero(t, evaluated)
	require.Equal(t, 2, d.fromMemo)
}

// TestStaticDocumentKeptAsJSON: a session keeps its static document as
// JSON when it reads back as itself, and as AST otherwise; either way it
// gives back the document it was given.
func TestStaticDocumentKeptAsJSON(t *testing.T) {
	static, _ := benchRequest(100)
	v, err := toValue(static)
	require.NoError(t, err)
	d := newStaticDoc(v)
	require.NotEmpty(t, d.json)
	require.Nil(t, d.value)
	back, err := d.get()
	require.NoError(t, err)
	require.Zero(t, back.Compare(v))

	withSet := ast.NewObject([2]*ast.Term{ast.StringTerm("declared"), ast.SetTerm(ast.StringTerm("read_file"))})
	d = newStaticDoc(withSet)
	require.Nil(t, d.json, "a set does not read back from JSON as a set")
	back, err = d.get()
	require.NoError(t, err)
	require.Same(t, withSet, back)
}

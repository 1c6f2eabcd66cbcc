package engine

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/stretchr/testify/require"
)

// A hook request or answer the host cannot read is an error (the caller
// then answers with the runtime's deny form), never a partial document.
func TestHookDocumentsThatCannotBeReadAreErrors(t *testing.T) {
	for _, doc := range []string{
		`[]`, `{}`, `{"input": {"calls": []}}`, `{"input": {"calls": []}, "session": {}}`,
		`{"input": {"calls": []}, "session": {"id": 1}}`, `{"input": 3, "session": {"id": "s"}}`,
	} {
		_, err := decodeHookRequest("claude_code", ast.MustParseTerm(doc).Value)
		require.Error(t, err, doc)
	}
	r, err := decodeHookRequest("claude_code", ast.MustParseTerm(`{"input": {"agent": {}, "calls": [1]}, "session": {"id": "s", "agent": "a"}}`).Value)
	require.NoError(t, err)
	require.Equal(t, [2]string{"s", "a"}, [2]string{r.SessionID, r.AgentID})
	require.Equal(t, `{"agent": {}}`, r.Static.String())
	r, err = decodeHookRequest("gemini", ast.MustParseTerm(`{"refusal": "no"}`).Value)
	require.NoError(t, err)
	require.Equal(t, "no", r.Refusal)

	for _, doc := range []string{
		`[]`, `{"outcome": "allow", "message": ""}`, `{"outcome": "maybe", "message": "", "output": {}}`,
		`{"outcome": "allow", "output": {}}`, `{"outcome": 1, "message": "", "output": {}}`,
	} {
		_, err := decodeHookAnswer(ast.MustParseTerm(doc).Value)
		require.Error(t, err, doc)
	}
	a, err := decodeHookAnswer(ast.MustParseTerm(`{"outcome": "ask", "message": "m", "output": {"a": [1]}}`).Value)
	require.NoError(t, err)
	require.Equal(t, HookAnswer{Outcome: OutcomeAsk, Message: "m", Output: []byte(`{"a":[1]}`)}, *a)
}

package tests

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
)

// uncanonicalizableSpellings are spellings of key that the policy cannot
// canonicalize exactly (as names_test.rego's): past the 256-character
// cap by default-ignorable code points, white space or full-width
// letters, or with marks the Rego cannot map exactly.
func uncanonicalizableSpellings(key string) []string {
	return []string{
		key + strings.Repeat("\u200b", 257-len(key)),
		strings.Repeat("\u00ad", 256) + strings.ToUpper(key),
		key + strings.Repeat("\ufe0f", 300),
		strings.Repeat(" ", 128) + key + strings.Repeat("\t", 128),
		key + strings.Repeat("\uff41", 256),
		key + "e\u0301",
		key + "a\u0345\u0323",
	}
}

// One entry named key in every name-keyed table a request reads.
var namesConfig = engine.Config{
	"agents":            map[string]any{"explore": map[string]any{"disallowed_tools": []any{"edit"}}},
	"tenants":           map[string]any{"acme": map[string]any{"tools": nil}},
	"scopes":            map[string]any{"repo": []any{"read_file", "edit", "mcp__github__*"}},
	"mcp_user_services": map[string]any{"alice": []any{"github"}},
}

// The request fields that name s in each table, the table's key, and the
// field the error names.
var namesTables = []struct {
	table, key, field string
	fields            func(s string) map[string]any
}{
	{"agents", "explore", "agent.name", func(s string) map[string]any {
		return map[string]any{"agent": map[string]any{"name": s, "role": "subagent", "depth": 1}}
	}},
	{"tenants", "acme", "tenant", func(s string) map[string]any { return map[string]any{"tenant": s} }},
	{"scopes", "repo", "caller.scopes[0]", func(s string) map[string]any {
		return map[string]any{"caller": map[string]any{"scopes": []any{s}}}
	}},
	{"mcp_user_services", "alice", "caller.user", func(s string) map[string]any {
		return map[string]any{"caller": map[string]any{"user": s}}
	}},
}

func namesRequest(fields map[string]any) map[string]any {
	doc := map[string]any{
		"declared": []any{
			map[string]any{"name": "read_file"},
			map[string]any{"name": "edit"},
			map[string]any{"name": "mcp__github__read_issue", "mcp": map[string]any{"server": "github", "tool": "read_issue"}},
		},
		"calls": []any{
			map[string]any{"id": "1", "name": "read_file"},
			map[string]any{"id": "2", "name": "edit"},
			map[string]any{"id": "3", "name": "mcp__github__read_issue"},
		},
	}
	for k, v := range fields {
		doc[k] = v
	}
	return doc
}

// requireRefusedEverywhere: every entry point of the engine refuses the
// request, and its errors (and check's) name field with code
// uncanonicalizable_name.
func requireRefusedEverywhere(t *testing.T, e *engine.Engine, doc map[string]any, field, what string) {
	t.Helper()
	ctx := context.Background()
	has := func(problems []engine.Problem) bool {
		for _, p := range problems {
			if p.Code() == "uncanonicalizable_name" && p["field"] == field {
				return true
			}
		}
		return false
	}
	d, err := e.Decide(ctx, doc)
	require.NoError(t, err, what)
	require.True(t, has(d.Errors), "%s: decision errors %v", what, d.Errors)
	for _, c := range d.Decisions {
		require.False(t, c.Allowed, "%s: %v allowed", what, c.Name)
		require.Equal(t, "invalid_config", c.Reason, what)
	}
	x, err := e.Explain(ctx, doc)
	require.NoError(t, err, what)
	for _, c := range x.Decisions {
		require.False(t, c.Allowed, "%s: explain allowed %v", what, c.Name)
	}
	c, err := e.Tools(ctx, doc)
	require.NoError(t, err, what)
	require.Empty(t, c.Effective, what)
	launch := with(doc, "subagent_type", "fork")
	launch["fork_tools"] = []any{"read_file"}
	l, err := e.Launch(ctx, launch)
	require.NoError(t, err, what)
	require.False(t, l.Valid, what)
	k, err := e.Check(ctx, doc)
	require.NoError(t, err, what)
	require.True(t, has(k.Errors), "%s: check errors %v", what, k.Errors)
}

// TestNamesThatCannotBeCanonicalizedRefuseEverywhere:
// through the engine, for every name-keyed table a request reads, a
// request name the policy cannot canonicalize exactly refuses every call
// at every entry point (explore followed by zero-width spaces is
// canonically explore, but may not escape explore's definition), while
// the key itself is read without error; and a table key the policy
// cannot canonicalize is an error located at the key that refuses every
// request looking a name up in that table.
func TestNamesThatCannotBeCanonicalizedRefuseEverywhere(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e, err := engine.New(ctx, engine.WithConfig(namesConfig))
	require.NoError(t, err)
	for _, tc := range namesTables {
		d, err := e.Decide(ctx, namesRequest(tc.fields(strings.ToUpper(tc.key))))
		require.NoError(t, err)
		require.Empty(t, d.Errors, "%s: the key itself", tc.table)
		for i, s := range uncanonicalizableSpellings(tc.key) {
			requireRefusedEverywhere(t, e, namesRequest(tc.fields(s)), tc.field, tc.table+" spelling "+string(rune('0'+i)))
		}
	}

	// One configuration whose every table has its key spelled so: each
	// request that looks a name up in a table is refused, with the key's
	// location.
	spelt := engine.Config{}
	for _, tc := range namesTables {
		entry := namesConfig[tc.table].(map[string]any)[tc.key]
		s := uncanonicalizableSpellings(tc.key)[0]
		spelt[tc.table] = map[string]any{s: entry}
	}
	spelt["profiles"] = map[string]any{uncanonicalizableSpellings("coding")[0]: nil}
	e, err = engine.New(ctx, engine.WithConfig(spelt))
	require.NoError(t, err)
	for _, tc := range namesTables {
		s := uncanonicalizableSpellings(tc.key)[0]
		requireRefusedEverywhere(t, e, namesRequest(tc.fields(tc.key)), "config."+tc.table+"."+s, tc.table+" key")
	}
	k, err := e.Check(ctx, map[string]any{})
	require.NoError(t, err)
	located := map[string]bool{}
	for _, p := range k.Errors {
		if p.Code() == "uncanonicalizable_name" {
			located[p["field"].(string)] = true
		}
	}
	require.True(t, located["config.profiles."+uncanonicalizableSpellings("coding")[0]], "check reports the profile key")
	require.Len(t, located, len(namesTables)+1, "check reports each key once")
}

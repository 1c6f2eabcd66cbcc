package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// SessionConfig is the static part of a decision input, as typed Go
// values. Any JSON-compatible value of the same shape works as well.
type SessionConfig struct {
	Agent     *Agent        `json:"agent,omitempty"`
	Declared  []Declaration `json:"declared"`
	Layers    []Layer       `json:"layers,omitempty"`
	Workspace *Workspace    `json:"workspace,omitempty"`
	// Tenant selects the tenant's plan in config.tenants ("" for none).
	Tenant string `json:"tenant,omitempty"`
	// Caller is who started the run: its scopes and user identity.
	Caller *Caller `json:"caller,omitempty"`
	// MCPServices is the request-level MCP service allowlist: nil admits
	// every server, an empty non-nil slice none.
	MCPServices []string `json:"mcp_services"`
	// Requester and Handoff are set on the continuation turn of a
	// requester resumed by its settled children.
	Requester *Requester `json:"requester,omitempty"`
	Handoff   *Handoff   `json:"handoff,omitempty"`
}

// Caller is who started the run.
type Caller struct {
	// Scopes select the tools in config.scopes: nil states nothing, an
	// empty non-nil slice refuses everything.
	Scopes []string `json:"scopes"`
	// User is the user identity that config.mcp_user_services binds MCP
	// servers to.
	User string `json:"user,omitempty"`
}

// RequesterPolicy is the tool policy of a requester, captured at spawn.
// A nil Allow states nothing; Deny wins.
type RequesterPolicy struct {
	Allow []string `json:"allow"`
	Deny  []string `json:"deny,omitempty"`
}

// Requester is the requester session a continuation resumes, with the
// digest of the policy the engine captured at spawn
// ([RequesterPolicyDigest]).
type Requester struct {
	Session      string `json:"session"`
	Batch        string `json:"batch"`
	PolicyDigest string `json:"policy_digest"`
}

// Handoff is the settled batch of children that resumes a requester,
// with the requester policy each child carries.
type Handoff struct {
	Session  string         `json:"session"`
	Batch    string         `json:"batch"`
	Children []HandoffChild `json:"children"`
}

// HandoffChild is one settled child of a handoff.
type HandoffChild struct {
	ID     string           `json:"id"`
	Policy *RequesterPolicy `json:"policy"`
}

// Agent is the agent making the calls.
type Agent struct {
	Name string `json:"name,omitempty"`
	// Role is "main", "subagent" or "fork".
	Role string `json:"role"`
	// Depth is 0 for the main agent, 1 for its children, and so on.
	Depth int `json:"depth"`
	// Async marks an agent that runs asynchronously (config.agent_filters.async_allowed).
	Async bool `json:"async,omitempty"`
	// Teammate marks an in-process teammate, which keeps the coordination tools of an async agent.
	Teammate bool `json:"teammate,omitempty"`
	// Coordinator marks coordinator mode (config.agent_filters.coordinator_allowed).
	Coordinator bool `json:"coordinator,omitempty"`
	// ReadOnly runs the agent in read-only mode: read tools, and shell actions that only observe.
	ReadOnly bool `json:"read_only,omitempty"`
}

// Declaration is one tool declaration the model was shown: a built-in
// (Name only), an MCP tool (MCP set) or a peer agent (Agent true).
type Declaration struct {
	Name  string       `json:"name"`
	MCP   *MCPIdentity `json:"mcp,omitempty"`
	Agent bool         `json:"agent,omitempty"`
}

// MCPIdentity is an MCP tool's raw, unsanitized server and tool names.
type MCPIdentity struct {
	Server string `json:"server"`
	Tool   string `json:"tool"`
}

// Layer is one named opinion on which tools may run. A nil Allow states
// nothing (unless AllowRules has rules); an empty, non-nil Allow refuses
// everything. Deny wins over Ask, and Ask over Allow, within the layer.
//
// As JSON a layer is the contract's (docs/contract.md, Layer entries and
// Argument rules): its allow, deny and ask lists hold the name entries
// and then the argument rules of that list, so a rule's source index
// counts the list's names first. [Layer.UnmarshalJSON] splits a list
// back into names and rules, in their order.
type Layer struct {
	Name  string   `json:"name"`
	Allow []string `json:"allow"`
	Deny  []string `json:"deny,omitempty"`
	// Ask lists the tools a person must approve a call of (outcome ask).
	Ask []string `json:"ask,omitempty"`
	// AllowRules, DenyRules and AskRules are the argument rules of the
	// allow, deny and ask lists.
	AllowRules []ArgumentRule `json:"-"`
	DenyRules  []ArgumentRule `json:"-"`
	AskRules   []ArgumentRule `json:"-"`
	// Message, when not empty, is quoted in the refusals the layer makes
	// (at most 1,000 characters).
	Message string `json:"message,omitempty"`
	// Otherwise is what the layer says of a call its allow list does not
	// let through: OutcomeAsk asks a person about it; OutcomeDeny, or
	// empty, refuses it (not_allowed). It has no effect on a layer that
	// states no allowlist.
	Otherwise Outcome `json:"otherwise,omitempty"`
}

// ArgumentRule is an entry of a layer's list that matches a call's
// arguments as well as its tool: a JSON object such as {"tool":
// "run_shell_command", "command_prefix": "git status"} (docs/contract.md,
// Argument rules). The policy validates it; a malformed one is a
// configuration error of the request, like any malformed entry.
type ArgumentRule map[string]any

// layerJSON is a layer as the contract writes it: lists of names and
// argument rules.
type layerJSON struct {
	Name      string  `json:"name"`
	Allow     []any   `json:"allow"`
	Deny      []any   `json:"deny,omitempty"`
	Ask       []any   `json:"ask,omitempty"`
	Message   string  `json:"message,omitempty"`
	Otherwise Outcome `json:"otherwise,omitempty"`
}

// MarshalJSON writes the layer as the contract does: each list its names
// and then its argument rules; allow is null when the layer states no
// allowlist.
func (l Layer) MarshalJSON() ([]byte, error) {
	out := layerJSON{Name: l.Name, Message: l.Message, Otherwise: l.Otherwise}
	if l.Allow != nil || l.AllowRules != nil {
		out.Allow = entries(l.Allow, l.AllowRules)
	}
	out.Deny = entries(l.Deny, l.DenyRules)
	out.Ask = entries(l.Ask, l.AskRules)
	return json.Marshal(out)
}

func entries(names []string, rules []ArgumentRule) []any {
	if len(names) == 0 && len(rules) == 0 {
		if names != nil {
			return []any{}
		}
		return nil
	}
	out := make([]any, 0, len(names)+len(rules))
	for _, n := range names {
		out = append(out, n)
	}
	for _, r := range rules {
		out = append(out, map[string]any(r))
	}
	return out
}

// UnmarshalJSON reads a layer as the contract writes it, strictly: a
// member other than name, allow, deny, ask, message and otherwise is an
// error (the policy judges otherwise's value), and
// so are two members (anywhere in it) whose names are equal or equal but
// for case (see DistinctMembers) and a list entry that is neither a
// string nor an object. Numbers are kept as written (json.Number).
func (l *Layer) UnmarshalJSON(data []byte) error {
	if err := DistinctMembers(data); err != nil {
		return fmt.Errorf("a layer's members %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	var in layerJSON
	if err := dec.Decode(&in); err != nil {
		return fmt.Errorf("a layer: %w", err)
	}
	out := Layer{Name: in.Name, Message: in.Message, Otherwise: in.Otherwise}
	var err error
	if out.Allow, out.AllowRules, err = splitEntries("allow", in.Allow); err != nil {
		return err
	}
	if in.Allow != nil && out.Allow == nil {
		out.Allow = []string{} // a list of rules only: the layer has an allowlist
	}
	if out.Deny, out.DenyRules, err = splitEntries("deny", in.Deny); err != nil {
		return err
	}
	if out.Ask, out.AskRules, err = splitEntries("ask", in.Ask); err != nil {
		return err
	}
	*l = out
	return nil
}

func splitEntries(list string, in []any) ([]string, []ArgumentRule, error) {
	var names []string
	var rules []ArgumentRule
	for i, e := range in {
		switch v := e.(type) {
		case string:
			names = append(names, v)
		case map[string]any:
			rules = append(rules, ArgumentRule(v))
		default:
			return nil, nil, fmt.Errorf("a layer's %s[%d] is neither a name (a string) nor an argument rule (an object)", list, i)
		}
	}
	if in != nil && names == nil && rules == nil {
		names = []string{}
	}
	return names, rules, nil
}

// Workspace enables the path rules.
type Workspace struct {
	Root         string   `json:"root"`
	ReadRoots    []string `json:"read_roots,omitempty"`
	Excluded     []string `json:"excluded,omitempty"`
	AllowOutside bool     `json:"allow_outside,omitempty"`
}

// Call is one tool call of a dispatch batch.
type Call struct {
	ID   string         `json:"id"`
	Name string         `json:"name"`
	Args map[string]any `json:"args,omitempty"`
}

// DelegationLayer is the layer appended when work is delegated to a peer
// agent: it allows exactly the peer's declared tools, so each hop of a
// delegation chain can only narrow what the chain may do.
func DelegationLayer(peer string, peerTools []string) Layer {
	allow := make([]string, len(peerTools))
	copy(allow, peerTools)
	return Layer{Name: "peer:" + peer, Allow: allow}
}

// Delegate returns a copy of the configuration for work handed to a peer
// agent: the peer's delegation layer is appended to the layers.
func (c SessionConfig) Delegate(peer string, peerTools []string) SessionConfig {
	out := c
	out.Layers = append(append([]Layer(nil), c.Layers...), DelegationLayer(peer, peerTools))
	return out
}

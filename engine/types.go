package engine

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
// nothing; an empty, non-nil Allow refuses everything. Deny wins over
// Allow within the layer.
type Layer struct {
	Name  string   `json:"name"`
	Allow []string `json:"allow"`
	Deny  []string `json:"deny,omitempty"`
	// Message, when not empty, is quoted in the refusals the layer makes
	// (at most 1,000 characters).
	Message string `json:"message,omitempty"`
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

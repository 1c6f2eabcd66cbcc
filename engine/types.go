package engine

// SessionConfig is the static part of a decision input, as typed Go
// values. Any JSON-compatible value of the same shape works as well.
type SessionConfig struct {
	Agent     *Agent        `json:"agent,omitempty"`
	Declared  []Declaration `json:"declared"`
	Layers    []Layer       `json:"layers,omitempty"`
	Workspace *Workspace    `json:"workspace,omitempty"`
}

// Agent is the agent making the calls.
type Agent struct {
	Name string `json:"name,omitempty"`
	// Role is "main", "subagent" or "fork".
	Role string `json:"role"`
	// Depth is 0 for the main agent, 1 for its children, and so on.
	Depth int `json:"depth"`
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

package engine

import (
	"errors"
	"fmt"

	"github.com/tooleval/tooleval/engine/forkmeta"
)

// ForkLayerName is the name of the layer that carries a fork's execution
// allowlist.
const ForkLayerName = "fork"

// PersistLaunch writes a valid launch's execution allowlist to the fork's
// agent-meta sidecar at path (see [forkmeta.PathFor]), atomically. An
// invalid launch is not persisted: the fork must not be started.
func PersistLaunch(path string, l *Launch) error {
	if !l.Valid {
		return errors.New("persist launch: the launch is invalid")
	}
	r := forkmeta.Unrestricted
	if l.ExecutionAllowedTools != nil {
		r = forkmeta.Restriction{Restricted: true, Allow: make([]string, 0, len(l.ExecutionAllowedTools))}
		for _, entry := range l.ExecutionAllowedTools {
			s, ok := entry.(string)
			if !ok {
				return fmt.Errorf("persist launch: execution_allowed_tools holds %T", entry)
			}
			r.Allow = append(r.Allow, s)
		}
	}
	return forkmeta.Write(path, r)
}

// ReviveForkLayer reads a revived fork's sidecar and returns the layer to
// add to its sessions: nil for an unrestricted fork, a "fork" layer with
// the persisted allowlist otherwise. The allowlist's entries are matched
// against the live declarations at every decision. When the sidecar
// cannot be trusted it returns a deny-all layer and the error.
func ReviveForkLayer(path string) (*Layer, error) {
	r, err := forkmeta.Read(path)
	if !r.Restricted {
		return nil, err
	}
	return &Layer{Name: ForkLayerName, Allow: r.Allow}, err
}

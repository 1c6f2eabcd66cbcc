package engine

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestEmbeddedLoadsShareNothingTheyChange: loads of the embedded bundle
// share its parse, and each changes only its own copy: engines made side
// by side with different configurations leave the shared bundle's data
// and manifest as they were, and each decides by its own configuration.
func TestEmbeddedLoadsShareNothingTheyChange(t *testing.T) {
	ctx := context.Background()
	parsed, err := parsedEmbeddedBundle()
	require.NoError(t, err)
	snapshot := func() string {
		data, err := json.Marshal(map[string]any{"data": parsed.Data, "manifest": parsed.Manifest, "modules": len(parsed.Modules)})
		require.NoError(t, err)
		return string(data)
	}
	before := snapshot()

	configs := []Config{
		nil,
		{"tools": map[string]any{"deny": []any{"Read"}}},
		{"tools": map[string]any{"allow": []any{"Grep"}}},
	}
	engines := make([]*Engine, len(configs))
	errs := make([]error, len(configs))
	var wg sync.WaitGroup
	for i, config := range configs {
		wg.Go(func() {
			var opts []Option
			if config != nil {
				opts = append(opts, WithConfig(config))
			}
			engines[i], errs[i] = New(ctx, opts...)
		})
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	require.Equal(t, before, snapshot(), "a load changed the shared embedded bundle")

	read := `{"agent": {"name": "main", "role": "main", "depth": 0}, "declared": [{"name": "Read"}, {"name": "Grep"}], "calls": [{"id": "c1", "name": "Read"}]}`
	outcomes := make([]string, len(engines))
	for i, e := range engines {
		d, err := e.Decide(ctx, JSON([]byte(read)))
		require.NoError(t, err)
		require.Len(t, d.Decisions, 1)
		outcomes[i] = string(d.Decisions[0].Outcome)
	}
	require.Equal(t, []string{"allow", "deny", "deny"}, outcomes, "each engine decides Read by its own configuration")
}

package prepared

import (
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
)

func newStore(data map[string]any) storage.Store {
	return inmem.NewFromObject(data)
}

package engine

import "errors"

// ErrUndefined is wrapped by the error of an evaluation whose query the
// policy always defines came back undefined: the loaded bundle is not a
// tooleval bundle, or it is broken. The document returned with it fails
// closed.
var ErrUndefined = errors.New("the policy returned no result")

// ErrShape is wrapped by the error of an evaluation whose result does not
// have the shape of the contract's documents (a decision without
// decisions, a catalog without tools, ...): the bundle is not the one
// this engine was built for, or it is broken. The document returned with
// it fails closed.
var ErrShape = errors.New("the policy result does not have the contract's shape")

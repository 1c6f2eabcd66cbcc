module github.com/tooleval/tooleval/tests/bench/cedar

go 1.26.0

replace github.com/tooleval/tooleval => ../../..

require (
	github.com/cedar-policy/cedar-go v1.9.2
	github.com/stretchr/testify v1.12.1
	github.com/tooleval/tooleval v0.0.0-00010101000000-000000000000
	golang.org/x/text v0.44.0
)

require (
	github.com/go-json-experiment/json v1.27.2 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	golang.org/x/exp v0.0.0-20220921023135-46d9e7742f1e // indirect
)

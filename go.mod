module github.com/turnorder/turnorder

go 1.26.8

require (
	github.com/alecthomas/participle/v2 v2.1.4
	github.com/expr-lang/expr v1.17.8
	github.com/google/go-cmp v0.7.0
	github.com/sourcegraph/jsonrpc2 v0.2.0
	github.com/tliron/glsp v0.2.2
	golang.org/x/term v0.48.0
)

require golang.org/x/sys v0.50.0 // indirect

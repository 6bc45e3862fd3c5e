package dsl

import (
	"go/token"
	"reflect"
	"sync"
)

// Walk calls fn for every AST node under n (pointers to structs), parents
// before children, in source order. An *Expr is a leaf: its parts are the
// package's own.
func Walk(n any, fn func(any)) {
	walk(reflect.ValueOf(n), fn)
}

func walk(v reflect.Value, fn func(any)) {
	switch v.Kind() {
	case reflect.Interface:
		if !v.IsNil() {
			walk(v.Elem(), fn)
		}
	case reflect.Pointer:
		if v.IsNil() || v.Elem().Kind() != reflect.Struct {
			return
		}
		fn(v.Interface())
		walk(v.Elem(), fn)
	case reflect.Struct:
		for _, i := range nodeFields(v.Type()) {
			walk(v.Field(i), fn)
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			walk(v.Index(i), fn)
		}
	}
}

// fieldsByType caches nodeFields: a parse walks the tree several times,
// and asking reflect for every field of every node each time was a sixth
// of the parse.
var fieldsByType sync.Map // reflect.Type → []int

// nodeFields returns the indices of the exported fields of struct type t
// that can hold nodes. Slices of structs (tokens, comments) are leaves.
func nodeFields(t reflect.Type) []int {
	if f, ok := fieldsByType.Load(t); ok {
		return f.([]int)
	}
	var out []int
	for i := range t.NumField() {
		f := t.Field(i)
		if f.IsExported() && mayHoldNodes(f.Type) {
			out = append(out, i)
		}
	}
	fieldsByType.Store(t, out)
	return out
}

func mayHoldNodes(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Pointer:
		// The parts of an expression (exprPart and what is in it, types
		// of the package's own) are no nodes a caller can name: walking
		// them, a token at a time, was most of a walk of a file of long
		// expressions.
		return t.Elem().Kind() != reflect.Struct || t.Elem().Name() == "" || token.IsExported(t.Elem().Name())
	case reflect.Struct:
		return len(nodeFields(t)) > 0
	case reflect.Slice:
		return t.Elem().Kind() != reflect.Struct && mayHoldNodes(t.Elem())
	}
	return false
}

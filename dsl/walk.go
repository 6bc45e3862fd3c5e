package dsl

import "reflect"

// Walk calls fn for every AST node under n (pointers to structs), parents
// before children, in source order.
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
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				walk(v.Field(i), fn)
			}
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Struct {
			return // token and comment slices are leaves
		}
		for i := 0; i < v.Len(); i++ {
			walk(v.Index(i), fn)
		}
	}
}

package runtime

import (
	"fmt"
	"reflect"

	"github.com/expr-lang/expr"
)

// builtins are functions every ruleset's expressions can call, beside
// expr-lang's own (len, sum, count, all, any, ...).
// sameTeam is the one function the runtime adds to expr-lang's built-ins.
const sameTeam = "same_team"

func builtins() []expr.Option {
	return []expr.Option{
		// same_team(tied): whether every subject in the list is on one
		// (non-empty) team. Units are on their side's team.
		expr.Function(sameTeam, func(args ...any) (any, error) {
			v := reflect.ValueOf(args[0])
			if v.Kind() != reflect.Slice {
				return nil, fmt.Errorf("same_team wants a list of sides or units, got %T", args[0])
			}
			team := ""
			for i := 0; i < v.Len(); i++ {
				t, ok := teamOf(v.Index(i))
				if !ok {
					return nil, fmt.Errorf("same_team wants a list of sides or units")
				}
				if t == "" || (i > 0 && t != team) {
					return false, nil
				}
				team = t
			}
			return v.Len() > 0, nil
		}, new(func(any) bool)),
	}
}

func teamOf(v reflect.Value) (string, bool) {
	if v.Kind() == reflect.Interface {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return "", false
	}
	for i := 0; i < v.NumField(); i++ {
		if v.Type().Field(i).Tag.Get("expr") == "team" {
			return v.Field(i).String(), true
		}
	}
	return "", false
}

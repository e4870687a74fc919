// Command argocd-health runs an Argo CD resource health check (Lua) against Kubernetes objects,
// as Argo CD does: the script sees the object as the global `obj` and returns a table with
// `status` and `message`. Argo CD runs these scripts with gopher-lua; so does this.
//
//	argocd-health SCRIPT.lua OBJECT.json...
//
// Prints one JSON line {"status": …, "message": …} per object, in order.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	lua "github.com/yuin/gopher-lua"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: argocd-health SCRIPT.lua OBJECT.json...")
		os.Exit(2)
	}
	script, err := os.ReadFile(os.Args[1])
	check(err)
	for _, path := range os.Args[2:] {
		text, err := os.ReadFile(path)
		check(err)
		var object any
		check(json.Unmarshal(text, &object))
		status, message, err := run(string(script), object)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", path, err)
			os.Exit(1)
		}
		line, _ := json.Marshal(map[string]string{"status": status, "message": message})
		fmt.Println(string(line))
	}
}

func run(script string, object any) (string, string, error) {
	// Argo CD opens only the safe standard libraries for health scripts.
	state := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer state.Close()
	for _, open := range []struct {
		name string
		fn   lua.LGFunction
	}{{lua.BaseLibName, lua.OpenBase}, {lua.TabLibName, lua.OpenTable}, {lua.StringLibName, lua.OpenString}, {lua.MathLibName, lua.OpenMath}} {
		state.Push(state.NewFunction(open.fn))
		state.Push(lua.LString(open.name))
		state.Call(1, 0)
	}
	state.SetGlobal("obj", toLua(state, object))
	if err := state.DoString(script); err != nil {
		return "", "", err
	}
	result, ok := state.Get(-1).(*lua.LTable)
	if !ok {
		return "", "", fmt.Errorf("the script returned %s, not a table", state.Get(-1).Type())
	}
	return lua.LVAsString(result.RawGetString("status")), lua.LVAsString(result.RawGetString("message")), nil
}

// toLua converts decoded JSON as Argo CD's Lua VM sees objects: maps and arrays as tables
// (arrays 1-based), numbers as numbers, null as nil.
func toLua(state *lua.LState, value any) lua.LValue {
	switch v := value.(type) {
	case map[string]any:
		table := state.NewTable()
		for key, item := range v {
			table.RawSetString(key, toLua(state, item))
		}
		return table
	case []any:
		table := state.NewTable()
		for _, item := range v {
			table.Append(toLua(state, item))
		}
		return table
	case string:
		return lua.LString(v)
	case float64:
		return lua.LNumber(v)
	case bool:
		return lua.LBool(v)
	default:
		return lua.LNil
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

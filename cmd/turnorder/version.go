package main

import (
	"fmt"
	"runtime/debug"
)

func versionCommand() *command {
	c := &command{
		name:  "version",
		args:  "",
		short: "print the version of turnorder",
		flags: newFlags("version"),
	}
	c.run = func(e *env, args []string) int {
		if len(args) > 0 {
			fmt.Fprintf(e.stderr, "turnorder version: takes no arguments (got %q)\n", args[0])
			return exitUsage
		}
		fmt.Fprintln(e.stdout, versionString(debug.ReadBuildInfo()))
		return exitOK
	}
	return c
}

// versionString is "turnorder VERSION (GOVERSION)".
func versionString(bi *debug.BuildInfo, ok bool) string {
	version, goVersion := "devel", "unknown Go version"
	if ok && bi != nil {
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			version = v
		}
		if bi.GoVersion != "" {
			goVersion = bi.GoVersion
		}
	}
	return fmt.Sprintf("turnorder %s (%s)", version, goVersion)
}

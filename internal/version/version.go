package version

import (
	"fmt"
	"runtime/debug"
	"sync"
)

// ModulePath is sortkey's module: its version is looked for among the
// build's dependencies when sortkey is embedded in another program.
const ModulePath = "github.com/sortkeydb/sortkey"

// Devel is the version of a build with no module version: `go run` or
// `go build` of a checkout without VCS stamping, or a test binary.
const Devel = "(devel)"

// Info is what the build says about sortkey.
type Info struct {
	Version string // the module version, or Devel
	// Commit is the VCS revision the binary was built from, "" when the
	// build did not record one (an embedding program, -buildvcs=false).
	Commit   string
	Modified bool   // the working tree had uncommitted changes
	Go       string // the Go release that built it, e.g. go1.26.8
}

// Stamped and StampedCommit are set with -ldflags -X by builds that have
// no VCS information to stamp: the image's (Dockerfile), whose context
// leaves .git out. When set they win over what the build recorded.
var Stamped, StampedCommit string

// Get reads the build information once; it never changes while running.
var Get = sync.OnceValue(func() Info {
	info := Info{Version: Devel}
	if bi, ok := debug.ReadBuildInfo(); ok {
		info = fromBuild(bi)
	}
	return stamp(info, Stamped, StampedCommit)
})

// stamp puts the -X stamped version and commit over info's.
func stamp(info Info, version, commit string) Info {
	if version != "" {
		info.Version = version
	}
	if commit != "" {
		info.Commit, info.Modified = commit, false
	}
	return info
}

// fromBuild finds sortkey in bi: the main module when this is the sortkey
// binary, a dependency when a program embeds it. Only the main module has
// VCS settings.
func fromBuild(bi *debug.BuildInfo) Info {
	info := Info{Version: Devel, Go: bi.GoVersion}
	if bi.Main.Path == ModulePath {
		info.Version = orDevel(bi.Main.Version)
		info.Commit, info.Modified = vcs(bi.Settings)
		return info
	}
	for _, m := range bi.Deps {
		if m.Path == ModulePath {
			info.Version = orDevel(m.Version)
		}
	}
	return info
}

func orDevel(v string) string {
	if v == "" {
		return Devel
	}
	return v
}

func vcs(settings []debug.BuildSetting) (commit string, modified bool) {
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			commit = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	return commit, modified
}

// String is the one-line form `sortkey version` prints:
//
//	sortkey v1.2.0 commit 3f2a9c1e… (modified) go1.26.8
func (i Info) String() string {
	s := "sortkey " + i.Version
	if i.Commit != "" {
		s += " commit " + i.Commit
	}
	if i.Modified {
		s += " (modified)"
	}
	return fmt.Sprintf("%s %s", s, i.Go)
}

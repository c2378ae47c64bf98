package version

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// The sortkey binary reports its own module version and commit.
func TestMainModule(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: ModulePath, Version: "v1.2.0"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "3f2a9c1e"}, {Key: "vcs.modified", Value: "true"}}}
	got := fromBuild(bi)
	want := Info{Version: "v1.2.0", Commit: "3f2a9c1e", Modified: true, Go: "go1.26.8"}
	if got != want {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	if s := got.String(); s != "sortkey v1.2.0 commit 3f2a9c1e (modified) go1.26.8" {
		t.Fatalf("String: %q", s)
	}
}

// A program embedding sortkey reports the sortkey version it depends on,
// not its own, and no commit: the commit the build records is the
// program's.
func TestEmbedded(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "example.com/app", Version: "v9.9.9"},
		Deps:     []*debug.Module{{Path: "golang.org/x/text", Version: "v0.1.0"}, {Path: ModulePath, Version: "v1.3.0"}},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "appcommit"}}}
	got := fromBuild(bi)
	if got != (Info{Version: "v1.3.0", Go: "go1.26.8"}) {
		t.Fatalf("got %+v", got)
	}
	if s := got.String(); s != "sortkey v1.3.0 go1.26.8" {
		t.Fatalf("String: %q", s)
	}
}

// A build without a version (a test binary, go run) says (devel), and
// names the Go that built it.
func TestGetDevel(t *testing.T) {
	got := Get()
	if got.Version == "" || got.Go != runtime.Version() {
		t.Fatalf("Get() = %+v, want a version and Go %s", got, runtime.Version())
	}
	if fromBuild(&debug.BuildInfo{Main: debug.Module{Path: ModulePath}}).Version != Devel {
		t.Fatal("an unversioned main module should be (devel)")
	}
}

// An image build stamps its version and commit with -X, which win over
// the build's; one built without them (empty) keeps what the build says.
func TestStamped(t *testing.T) {
	built := Info{Version: Devel, Commit: "abc", Modified: true, Go: "go1.26.8"}
	if got := stamp(built, "v2.0.0", "0123abc"); got != (Info{Version: "v2.0.0", Commit: "0123abc", Go: "go1.26.8"}) {
		t.Fatalf("stamped: %+v", got)
	}
	if got := stamp(built, "", ""); got != built {
		t.Fatalf("not stamped: %+v", got)
	}
}

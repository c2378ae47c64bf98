package main

// The packaging files (Dockerfile, .dockerignore, .goreleaser.yaml, go.mod)
// are checked here against the code they build, where no Docker or
// GoReleaser is needed: a rename of the command or a flag breaks this test
// rather than the next release.

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

const modulePath = "github.com/sortkeydb/sortkey"

// `go install github.com/sortkeydb/sortkey/cmd/sortkey@latest` needs the
// module to be named where it is published and to need no replace
// directive, which go install refuses.
func TestGoInstallable(t *testing.T) {
	mod := readRoot(t, "go.mod")
	if !strings.HasPrefix(mod, "module "+modulePath+"\n") {
		t.Errorf("go.mod does not start with module %s", modulePath)
	}
	if regexp.MustCompile(`(?m)^\s*replace\b`).MatchString(mod) {
		t.Error("go.mod has a replace directive: go install ...@latest would refuse the module")
	}
}

// The image builds this command statically, runs it as a non-root user,
// checks its health with the health command, and sets only variables that
// serve reads, with values it takes.
func TestDockerfileBuildsAndRunsThisCommand(t *testing.T) {
	df := readRoot(t, "Dockerfile")
	build := regexp.MustCompile(`(?m)^RUN CGO_ENABLED=0 .*go build .* (\./cmd/sortkey)$`).FindStringSubmatch(df)
	if build == nil || !sameDir(t, filepath.Join("../..", build[1]), ".") {
		t.Errorf("the Dockerfile has no static `go build` of ./cmd/sortkey, this command")
	}
	if !strings.Contains(df, "\nUSER 65532:65532\n") {
		t.Error("the Dockerfile does not run as the non-root user")
	}
	health := regexp.MustCompile(`(?m)^HEALTHCHECK .* CMD \["/sortkey", "health"\]$`)
	if !health.MatchString(df) {
		t.Error(`the Dockerfile's HEALTHCHECK is not ["/sortkey", "health"]`)
	}
	f := imageSettings(t, df)
	if f.addr != "0.0.0.0:8000" || f.dataDir != "/data" || !strings.Contains(df, "\nVOLUME /data\n") || !strings.Contains(df, "\nEXPOSE 8000\n") {
		t.Errorf("image settings: addr %q, data-dir %q; want them to match EXPOSE 8000 and VOLUME /data", f.addr, f.dataDir)
	}
}

// imageSettings parses serve's flags under the Dockerfile's SORTKEY_*
// variables, failing on one that is not a flag's.
func imageSettings(t *testing.T, df string) serveFlags {
	names := map[string]bool{}
	serveFlagSet(&serveFlags{}).VisitAll(func(fl *flag.Flag) { names[envName(fl.Name)] = true })
	for _, m := range regexp.MustCompile(`(SORTKEY_[A-Z_]+)=(\S+)`).FindAllStringSubmatch(df, -1) {
		if !names[m[1]] {
			t.Errorf("the Dockerfile sets %s, which no flag of serve reads", m[1])
		}
		t.Setenv(m[1], m[2])
	}
	return mustParseServe(t)
}

// .dockerignore leaves out nothing the build reads: the files of every
// package of this module that the command imports, and what they embed.
func TestDockerignoreKeepsWhatTheBuildReads(t *testing.T) {
	patterns := strings.Fields(regexp.MustCompile(`(?m)#.*$`).ReplaceAllString(readRoot(t, ".dockerignore"), ""))
	for _, file := range buildFiles(t) {
		for _, pat := range patterns {
			if ignored(pat, file) {
				t.Errorf(".dockerignore's %q leaves out %s, which go build reads", pat, file)
			}
		}
	}
}

// buildFiles are the module's files go build reads for this command,
// relative to the module's root.
func buildFiles(t *testing.T) []string {
	out, err := exec.Command("go", "list", "-deps", "-json=Dir,Module,GoFiles,EmbedFiles", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"go.mod", "go.sum"}
	for dec := json.NewDecoder(bytes.NewReader(out)); dec.More(); {
		var p struct {
			Dir                 string
			Module              *struct{ Path string }
			GoFiles, EmbedFiles []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		if p.Module == nil || p.Module.Path != modulePath {
			continue
		}
		rel, _ := filepath.Rel(root, p.Dir)
		for _, f := range slices.Concat(p.GoFiles, p.EmbedFiles) {
			files = append(files, filepath.ToSlash(filepath.Join(rel, f)))
		}
	}
	return files
}

// ignored reports whether the .dockerignore pattern leaves out file: a
// pattern names a path and everything under it; "**/" matches any depth.
func ignored(pat, file string) bool {
	parts := strings.Split(file, "/")
	anyDepth := strings.HasPrefix(pat, "**/")
	pat = strings.TrimPrefix(pat, "**/")
	for start := range parts {
		if start > 0 && !anyDepth {
			break
		}
		for end := start + 1; end <= len(parts); end++ {
			if ok, _ := path.Match(pat, strings.Join(parts[start:end], "/")); ok {
				return true
			}
		}
	}
	return false
}

// The release builds this command, statically, for the platforms the
// README names.
func TestGoreleaserBuildsThisCommand(t *testing.T) {
	var cfg struct {
		Builds []struct {
			Main   string
			Env    []string
			Goos   []string
			Goarch []string
		}
	}
	if err := yaml.Unmarshal([]byte(readRoot(t, ".goreleaser.yaml")), &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Builds) != 1 {
		t.Fatalf("%d builds, want 1", len(cfg.Builds))
	}
	b := cfg.Builds[0]
	if !sameDir(t, filepath.Join("../..", b.Main), ".") || !slices.Contains(b.Env, "CGO_ENABLED=0") {
		t.Errorf("main %q, env %v", b.Main, b.Env)
	}
	for _, want := range []string{"linux", "darwin", "windows", "amd64", "arm64"} {
		if !slices.Contains(b.Goos, want) && !slices.Contains(b.Goarch, want) {
			t.Errorf("no %s among %v %v", want, b.Goos, b.Goarch)
		}
	}
}

func readRoot(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("../..", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func sameDir(t *testing.T, a, b string) bool {
	t.Helper()
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}

// The image's build stamps the version and commit it is given, which its
// context (no .git) cannot tell Go: the Dockerfile's own ldflags, built
// here, make `sortkey version` report them.
func TestDockerfileStampsVersionAndCommit(t *testing.T) {
	df := readRoot(t, "Dockerfile")
	if !strings.Contains(df, "\nARG VERSION=\"\" COMMIT=\"\"\n") {
		t.Fatal(`the Dockerfile declares no ARG VERSION="" COMMIT=""`)
	}
	m := regexp.MustCompile(`(?m)^RUN CGO_ENABLED=0 .*-ldflags="([^"]*)"`).FindStringSubmatch(df)
	if m == nil {
		t.Fatal("the Dockerfile's go build has no -ldflags")
	}
	ldflags := strings.NewReplacer("${VERSION}", "v9.8.7", "${COMMIT}", "0123abc").Replace(m[1])
	if got := versionBuiltWith(t, ldflags); !strings.HasPrefix(got, "sortkey v9.8.7 commit 0123abc go") {
		t.Fatalf("sortkey version of the image's build: %q", got)
	}
}

// versionBuiltWith builds this command as the Dockerfile does, with
// ldflags, and returns what its version command prints.
func versionBuiltWith(t *testing.T, ldflags string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "sortkey")
	build := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-ldflags="+ldflags, "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// Where Docker runs, the image itself reports the version and commit it
// was built with. It builds the image (minutes, and the base images from
// their registries), so it runs only when asked.
func TestImageReportsItsVersion(t *testing.T) {
	if os.Getenv("SORTKEY_DOCKER_TESTS") == "" {
		t.Skip("builds the Docker image: set SORTKEY_DOCKER_TESTS=1 where a Docker daemon runs (TestDockerfileStampsVersionAndCommit checks the same flags without Docker)")
	}
	tag := "sortkey-version-test"
	build := exec.Command("docker", "build", "--build-arg", "VERSION=v9.8.7", "--build-arg", "COMMIT=0123abc", "-t", tag, "../..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("docker build: %v\n%s", err, out)
	}
	out, err := exec.Command("docker", "run", "--rm", tag, "version").Output()
	if got := strings.TrimSpace(string(out)); err != nil || !strings.HasPrefix(got, "sortkey v9.8.7 commit 0123abc go") {
		t.Fatalf("the image's sortkey version: %q, %v", got, err)
	}
}

// Package version reports which sortkey is running: its module version,
// the commit it was built from and the Go release that built it, all read
// from the build information the Go toolchain stamps into the binary.
// `sortkey version` prints it, `sortkey serve` logs it at startup and the
// server names the version in the X-Sortkey-Version header of every
// response.
package version

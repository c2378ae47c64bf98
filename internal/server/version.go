package server

import "github.com/sortkeydb/sortkey/internal/version"

// VersionHeader names the sortkey version on every response, so that a
// bug report or a test log tells which build answered. It is sortkey's
// addition: DynamoDB sends no header of that name, and SDKs ignore
// headers they do not know.
const VersionHeader = "X-Sortkey-Version"

// versionValue is shared by every response, so setting it allocates
// nothing; with a capacity of one, an append copies it.
var versionValue = []string{version.Get().Version}

// serverHeader names the server on every response, as DynamoDB sends a
// Server header on every one (observed on AWS; its value there is not
// known).
const serverHeader = "Server"

// serverValue is shared by every response, as versionValue is.
var serverValue = []string{"sortkey"}

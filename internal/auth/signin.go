package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"net/http"
)

// Signing in is for a person at the web console, who cannot sign each
// request with SigV4: they give a principal's access key id and secret
// once, and the console then acts as that principal (Act) for as long as
// the auth file in force still has it with that very credential.

var (
	// ErrSignIn is the one answer to a credential that does not sign in:
	// an unknown access key and a wrong secret are not told apart.
	ErrSignIn = errors.New(msgSignIn)
	// ErrSignedOut ends a Login whose principal, key or secret the auth
	// file in force no longer has (a reload removed or changed it).
	ErrSignedOut = errors.New(msgSignedOut)
)

// Login is a principal signed in with its access key: who, and a digest
// of the credential given, never the credential itself.
type Login struct {
	AccessKeyID string
	Arn         string
	digest      [sha256.Size]byte
}

// unknownKey is what a credential for an access key the file lacks is
// compared with, so that such a sign-in costs what a wrong secret does.
var unknownKey = func() (d [sha256.Size]byte) {
	_, _ = rand.Read(d[:]) // crypto/rand.Read never fails: it crashes the program instead
	return d
}()

// SignIn checks secret and sessionToken (empty unless the principal has
// one) against the principal with accessKeyID in the auth file in force,
// in constant time, and returns its Login or ErrSignIn.
func (a *Authorizer) SignIn(accessKeyID, secret, sessionToken string) (Login, error) {
	p := a.Config().byKey[accessKeyID]
	want := unknownKey
	if p != nil {
		want = credentialDigest(p.key.Secret, p.key.SessionToken)
	}
	got := credentialDigest(secret, sessionToken)
	if subtle.ConstantTimeCompare(got[:], want[:]) != 1 || p == nil {
		return Login{}, ErrSignIn
	}
	return Login{AccessKeyID: accessKeyID, Arn: p.Arn, digest: got}, nil
}

// Act is the Caller that l is for a request r made on its behalf (r's
// source address and transport, the time now). The principal is looked
// up afresh in the auth file in force, so its policies now are the ones
// applied, and a reload that removed it or changed its key or secret
// ends l at once with ErrSignedOut.
func (a *Authorizer) Act(l Login, r *http.Request) (*Caller, error) {
	p := a.Config().byKey[l.AccessKeyID]
	if p == nil || p.Arn != l.Arn {
		return nil, ErrSignedOut
	}
	d := credentialDigest(p.key.Secret, p.key.SessionToken)
	if subtle.ConstantTimeCompare(d[:], l.digest[:]) != 1 {
		return nil, ErrSignedOut
	}
	return a.caller(p, sourceIP(r), r.TLS != nil, a.now()), nil
}

// credentialDigest hashes a secret and token of any length to one size,
// so that comparing two takes the same time whatever they hold; the
// secret's length comes first, so no two pairs share an input.
func credentialDigest(secret, sessionToken string) [sha256.Size]byte {
	b := binary.AppendUvarint(nil, uint64(len(secret)))
	return sha256.Sum256(append(append(b, secret...), sessionToken...))
}

package main

import (
	_ "embed"
	"encoding/json"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
)

// TenantPolicy is every user's identity policy: read the four shards of
// the user the caller's "user" principal tag names, write only the
// profile and cart shards. It is the policy an AWS deployment attaches,
// unchanged, to the role its Cognito identity pool hands signed-in users
// (README.md, "Per-tenant access").
//
//go:embed tenant-policy.json
var TenantPolicy string

// BackEndPolicy is the back end's identity policy: everything on the
// Market table and its indexes.
//
//go:embed backend-policy.json
var BackEndPolicy string

// Account is the AWS account of the example's auth file.
const Account = "123456789012"

// BackEndArn is the back end: a session of the role its processes run as.
const BackEndArn = "arn:aws:sts::" + Account + ":assumed-role/market-backend/order-process"

// UserArn is a signed-in user: a session of the role Cognito gives
// users. The session is named after the user here only so that the auth
// file tells users apart (Cognito names its sessions otherwise); the
// policy reads nothing but the user tag.
func UserArn(u UserID) string {
	return "arn:aws:sts::" + Account + ":assumed-role/market-user/" + string(u)
}

// UserTag is the principal tag holding the caller's user id, the claim
// "sub" of their Cognito token, which TenantPolicy reads.
const UserTag = "user"

// Keys are a principal's credentials in the example's auth file. They
// are made up, and good only against a local sortkey given that file.
type Keys struct{ AccessKeyID, SecretAccessKey, SessionToken string }

// Provider gives the keys to an SDK client.
func (k Keys) Provider() aws.CredentialsProvider {
	return credentials.NewStaticCredentialsProvider(k.AccessKeyID, k.SecretAccessKey, k.SessionToken)
}

// BackEndKeys are the back end's credentials.
func BackEndKeys() Keys {
	return Keys{"ASIAMARKETBACKEND", "local-only-backend-secret", "local-only-backend-session"}
}

// UserKeys are user u's credentials, as Cognito would issue them for a
// session of u.
func UserKeys(u UserID) Keys {
	hex := strings.ToUpper(strings.ReplaceAll(string(u), "-", ""))
	return Keys{"ASIA" + hex, "local-only-secret-" + string(u), "local-only-session-" + string(u)}
}

// authPrincipal is one principal of a sortkey auth file.
type authPrincipal struct {
	Arn             string            `json:"arn"`
	AccessKeyID     string            `json:"accessKeyId"`
	SecretAccessKey string            `json:"secretAccessKey"`
	SessionToken    string            `json:"sessionToken"`
	Tags            map[string]string `json:"tags,omitempty"`
	Policies        []json.RawMessage `json:"policies"`
}

func principal(arn string, k Keys, tags map[string]string, policy string) authPrincipal {
	return authPrincipal{Arn: arn, AccessKeyID: k.AccessKeyID, SecretAccessKey: k.SecretAccessKey,
		SessionToken: k.SessionToken, Tags: tags, Policies: []json.RawMessage{json.RawMessage(policy)}}
}

// AuthFile is the auth file (sortkey.Options.Auth, sortkey serve --auth)
// of the example: the back end under BackEndPolicy, and each of users
// tagged with their id under tenantPolicy (TenantPolicy, or a test's
// variant of it). A policy that is not JSON fails here; one that is not
// a valid IAM policy fails when sortkey loads the file.
func AuthFile(tenantPolicy string, users ...UserID) ([]byte, error) {
	ps := []authPrincipal{principal(BackEndArn, BackEndKeys(), nil, BackEndPolicy)}
	for _, u := range users {
		ps = append(ps, principal(UserArn(u), UserKeys(u), map[string]string{UserTag: string(u)}, tenantPolicy))
	}
	return json.MarshalIndent(struct {
		Account    string          `json:"account"`
		Principals []authPrincipal `json:"principals"`
	}{Account, ps}, "", "  ")
}

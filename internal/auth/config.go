package auth

import (
	"bytes"
	"crypto/sha256"
	"encoding/base32"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/sortkeydb/sortkey/internal/auth/sigv4"
	"github.com/sortkeydb/sortkey/internal/iampolicy"
)

// file is the auth file as written: the account the server's tables
// belong to, and the principals that may call it.
type file struct {
	Account    string          `json:"account"`
	Principals []principalFile `json:"principals"`
}

type principalFile struct {
	Arn             string            `json:"arn"`
	AccessKeyID     string            `json:"accessKeyId"`
	SecretAccessKey string            `json:"secretAccessKey"`
	SessionToken    string            `json:"sessionToken"`
	UserID          string            `json:"userId"`
	Tags            map[string]string `json:"tags"`
	Policies        []json.RawMessage `json:"policies"`
}

// Config is a parsed and checked auth file. It is immutable, so a reload
// swaps in a whole new one while requests in flight finish with the old.
type Config struct {
	account string
	byKey   map[string]*Principal
	byArn   map[string]*Principal
}

// Account is the account the server's tables belong to.
func (c *Config) Account() string { return c.account }

// Principal returns the principal the file names arn, for tests and the
// policy simulator.
func (c *Config) Principal(arn string) (*Principal, error) {
	if p, ok := c.byArn[arn]; ok {
		return p, nil
	}
	return nil, fmt.Errorf(msgUnknownCaller, arn)
}

// Load reads and parses the auth file at path.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(data)
}

// Parse parses an auth file. Unknown members are refused, so that a
// misspelt one is not silently ignored.
func Parse(data []byte) (*Config, error) {
	var f file
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf(msgFileJSON, err)
	}
	if dec.More() {
		return nil, errors.New(msgTrailingData)
	}
	return compile(&f)
}

var accountPattern = regexp.MustCompile(`^[0-9]{12}$`)

func compile(f *file) (*Config, error) {
	if !accountPattern.MatchString(f.Account) {
		return nil, fmt.Errorf(msgAccount, f.Account)
	}
	if len(f.Principals) == 0 {
		return nil, errors.New(msgNoPrincipals)
	}
	c := &Config{account: f.Account, byKey: map[string]*Principal{}, byArn: map[string]*Principal{}}
	for i := range f.Principals {
		if err := c.add(i, &f.Principals[i]); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// add checks one principal and files it by key and by ARN.
func (c *Config) add(i int, pf *principalFile) error {
	p, err := newPrincipal(pf)
	if err != nil {
		return fmt.Errorf(msgPrincipal, i, pf.Arn, err)
	}
	if p.Policies, err = parsePolicies(i, pf); err != nil {
		return err
	}
	if j, dup := c.index(pf.Arn, c.byArn); dup {
		return fmt.Errorf(msgPrincipal, i, pf.Arn, fmt.Sprintf(msgDuplicateArn, j))
	}
	if j, dup := c.index(pf.AccessKeyID, c.byKey); dup {
		return fmt.Errorf(msgPrincipal, i, pf.Arn, fmt.Sprintf(msgDuplicateKey, j))
	}
	p.position = i
	for j := range p.Policies {
		p.policyNames = append(p.policyNames, fmt.Sprintf("principals[%d].policies[%d]", i, j))
	}
	c.byArn[p.Arn], c.byKey[pf.AccessKeyID] = p, p
	return nil
}

func (c *Config) index(k string, m map[string]*Principal) (int, bool) {
	p, ok := m[k]
	if !ok {
		return 0, false
	}
	return p.position, true
}

// parsePolicies parses a principal's identity policies. A policy may be
// the document itself or, as the AWS CLI prints it, a string holding it.
func parsePolicies(i int, pf *principalFile) ([]*iampolicy.Policy, error) {
	out := make([]*iampolicy.Policy, 0, len(pf.Policies))
	for j, raw := range pf.Policies {
		var doc string
		if err := json.Unmarshal(raw, &doc); err == nil {
			raw = json.RawMessage(doc)
		}
		p, err := iampolicy.Parse(raw, iampolicy.Identity)
		if err != nil {
			return nil, fmt.Errorf(msgPolicy, i, pf.Arn, j, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// principalArn is the callers sortkey knows: IAM users, roles, and
// sessions of assumed roles.
var principalArn = regexp.MustCompile(`^arn:aws:(?:iam::([0-9]{12}):(user|role)/(?:[\w+=,.@-]+/)*([\w+=,.@-]+)|sts::([0-9]{12}):(assumed-role)/([\w+=,.@-]+)/([\w+=,.@-]+))$`)

func newPrincipal(pf *principalFile) (*Principal, error) {
	m := principalArn.FindStringSubmatch(pf.Arn)
	if m == nil {
		return nil, fmt.Errorf(msgPrincipalArn, pf.Arn)
	}
	if pf.AccessKeyID == "" || pf.SecretAccessKey == "" {
		return nil, errors.New(msgMissingKey)
	}
	if _, ok := pf.Tags[""]; ok {
		return nil, errors.New(msgEmptyTagKey)
	}
	p := &Principal{Arn: pf.Arn, Tags: pf.Tags, key: sigv4.Key{Secret: pf.SecretAccessKey, SessionToken: pf.SessionToken}}
	p.AccessKeyID = pf.AccessKeyID
	p.identify(m, pf.UserID)
	p.base = p.baseContext()
	return p, nil
}

// identify fills in who the ARN says the principal is: its account, its
// type, its name, and the unique ID IAM would give it.
func (p *Principal) identify(m []string, userID string) {
	if m[1] != "" {
		p.Account, p.kind, p.name = m[1], m[2], m[3]
		p.principalArn = p.Arn
	} else {
		p.Account, p.kind, p.name = m[4], m[5], m[7]
		p.principalArn = "arn:aws:iam::" + m[4] + ":role/" + m[6]
	}
	p.UserID = userID
	if p.UserID == "" {
		p.UserID = uniqueID(p)
	}
}

// uniqueID makes up the unique ID IAM gives a user (AIDA…) or a role
// (AROA…, with the session name after a colon), stable for an ARN so
// that a policy naming it keeps working across restarts.
func uniqueID(p *Principal) string {
	sum := sha256.Sum256([]byte(p.principalArn))
	id := strings.ToUpper(base32.StdEncoding.EncodeToString(sum[:]))[:17]
	if p.kind == "user" {
		return "AIDA" + id
	}
	return "AROA" + id + ":" + p.name
}

package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/sortkeydb/sortkey/internal/apierr"
	"github.com/sortkeydb/sortkey/internal/protocol"
	"github.com/sortkeydb/sortkey/internal/validate"
)

// A resource-based policy is kept in its table's catalog entry: the
// table's own in tableMeta.Policy, a stream's in its streamMeta. So it is
// written in the same batch as the table it belongs to, read with it at
// Open, and gone with it at DeleteTable; a stream enabled anew starts
// without one, and a disabled stream keeps its own while it can still
// be described, as DynamoDB lets a disabled stream's policy be changed.

// policyMeta is one revision of a resource's policy document.
type policyMeta struct {
	Doc      []byte `json:"doc"`
	Revision string `json:"rev"`
}

// maxPolicyBytes is DynamoDB's limit on a document, whitespace included.
const maxPolicyBytes = 20480

// noPolicy is the ExpectedRevisionId that asks to attach a policy only
// where there is none.
const noPolicy = "NO_POLICY"

// The policy operations' answers about documents and revisions. The
// size and document texts are DynamoDB's (observed on AWS), and so are
// the revision mismatches (facts 37); msgNoPolicy follows them.
const (
	msgPolicyTooLarge   = invalidParam + "Maximum policy size of 20480 bytes exceeded"
	msgInvalidPolicy    = invalidParam + "Invalid policy document: %s"
	msgPolicyNotJSON    = "This policy contains invalid Json"
	msgNoPolicy         = "Resource-based policy not found for the provided ResourceArn: %s"
	msgRevisionMismatch = "Resource-based policy not found for the provided ResourceArn: Requested update for policy with revision id %s, but the policy associated to target table %s has revision id %s."
	msgPolicyExists     = "Resource-based policy not found for the provided ResourceArn: Requested policy update expecting none to be present for table %s, but a policy exists with revision id %s."
)

// PutResourcePolicy attaches a policy document to a table or stream, or
// replaces its document. The same document again keeps its revision.
// ConfirmRemoveSelfResourceAccess is accepted and ignored: it matters
// only when access control finds that the new document would lock the
// caller out, which is for access control to check before this runs.
func (e *Engine) PutResourcePolicy(_ context.Context, in *protocol.PutResourcePolicyInput) (*protocol.PutResourcePolicyOutput, error) {
	if err := validate.PutResourcePolicy(in); err != nil {
		return nil, err
	}
	ref, err := e.policyRef(*in.ResourceArn)
	if err != nil {
		return nil, err
	}
	doc := []byte(*in.Policy)
	if err := e.checkPolicyDoc(doc); err != nil {
		return nil, err
	}
	rev, err := e.putPolicy(ref, doc, in.ExpectedRevisionId)
	if err != nil {
		return nil, err
	}
	return &protocol.PutResourcePolicyOutput{RevisionId: rev}, nil
}

// putPolicy stores a checked document as ref's policy, unless it is the
// current one, and returns its revision.
func (e *Engine) putPolicy(ref resourceRef, doc []byte, expected *string) (string, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	t, stream, err := e.policyHolder(ref)
	if err != nil {
		return "", err
	}
	cur := t.policyOf(stream)
	if err := expectPolicyPut(cur, expected, ref); err != nil {
		return "", err
	}
	if cur != nil && bytes.Equal(cur.Doc, doc) {
		return cur.Revision, nil
	}
	p := &policyMeta{Doc: doc, Revision: newUUID()}
	return p.Revision, e.setPolicy(t, stream, p)
}

// GetResourcePolicy returns a table's or stream's policy document.
func (e *Engine) GetResourcePolicy(_ context.Context, in *protocol.GetResourcePolicyInput) (*protocol.GetResourcePolicyOutput, error) {
	if err := validate.GetResourcePolicy(in); err != nil {
		return nil, err
	}
	ref, err := e.policyRef(*in.ResourceArn)
	if err != nil {
		return nil, err
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	t, stream, err := e.policyHolder(ref)
	if err != nil {
		return nil, err
	}
	p := t.policyOf(stream)
	if p == nil {
		return nil, apierr.New(apierr.PolicyNotFound, msgNoPolicy, ref)
	}
	return &protocol.GetResourcePolicyOutput{Policy: string(p.Doc), RevisionId: p.Revision}, nil
}

// DeleteResourcePolicy removes a table's or stream's policy. Without an
// ExpectedRevisionId it succeeds where there is none, answering no
// RevisionId.
func (e *Engine) DeleteResourcePolicy(_ context.Context, in *protocol.DeleteResourcePolicyInput) (*protocol.DeleteResourcePolicyOutput, error) {
	if err := validate.DeleteResourcePolicy(in); err != nil {
		return nil, err
	}
	ref, err := e.policyRef(*in.ResourceArn)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	t, stream, err := e.policyHolder(ref)
	if err != nil {
		return nil, err
	}
	cur := t.policyOf(stream)
	if err := expectPolicy(cur, in.ExpectedRevisionId, ref); err != nil {
		return nil, err
	}
	if cur == nil {
		return &protocol.DeleteResourcePolicyOutput{}, nil
	}
	if err := e.setPolicy(t, stream, nil); err != nil {
		return nil, err
	}
	return &protocol.DeleteResourcePolicyOutput{RevisionId: cur.Revision}, nil
}

// ResourcePolicy is the policy document and revision of the table or
// stream arn names, for access control, which asks on every request: it
// reads memory only. An index ARN answers its table's policy, which is
// where DynamoDB keeps index permissions. The document must not be
// modified.
func (e *Engine) ResourcePolicy(arn string) (doc []byte, revision string, ok bool) {
	if name, isTable := strings.CutPrefix(arn, e.arnPrefix); isTable && !strings.Contains(name, "/") {
		// A table of this region and account, the common case, without
		// parsing the ARN.
		return e.tablePolicy(name)
	}
	ref, err := parseResourceArn(arn)
	if err != nil || ref.account != e.account {
		return nil, "", false
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	t, stream := e.findHolder(ref)
	if t == nil {
		return nil, "", false
	}
	if p := t.policyOf(stream); p != nil {
		return p.Doc, p.Revision, true
	}
	return nil, "", false
}

func (e *Engine) tablePolicy(name string) ([]byte, string, bool) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if t := e.tables[name]; t != nil && t.meta.Policy != nil {
		return t.meta.Policy.Doc, t.meta.Policy.Revision, true
	}
	return nil, "", false
}

// checkPolicyDoc judges a document before anything is stored: its size,
// then Options.CheckPolicy, or, without one, that it is a JSON object.
func (e *Engine) checkPolicyDoc(doc []byte) error {
	if len(doc) > maxPolicyBytes {
		return apierr.Validationf(msgPolicyTooLarge)
	}
	check := e.checkPolicy
	if check == nil {
		check = jsonObject
	}
	if err := check(doc); err != nil {
		return apierr.Validationf(msgInvalidPolicy, err.Error())
	}
	return nil
}

func jsonObject(doc []byte) error {
	var m map[string]json.RawMessage
	if json.Unmarshal(doc, &m) != nil || m == nil {
		return errors.New(msgPolicyNotJSON)
	}
	return nil
}

// newPolicy is a first revision of doc, which checkPolicyDoc accepted.
func newPolicy(doc *string) *policyMeta {
	if doc == nil {
		return nil
	}
	return &policyMeta{Doc: []byte(*doc), Revision: newUUID()}
}

// expectPolicyPut applies PutResourcePolicy's ExpectedRevisionId, which
// may also be NO_POLICY: attach only where there is none.
func expectPolicyPut(cur *policyMeta, expected *string, ref resourceRef) error {
	if expected == nil || *expected != noPolicy {
		return expectPolicy(cur, expected, ref)
	}
	if cur != nil {
		return apierr.New(apierr.PolicyNotFound, msgPolicyExists, ref.table, cur.Revision)
	}
	return nil
}

// expectPolicy checks that the current policy has the expected revision,
// if one is expected.
func expectPolicy(cur *policyMeta, expected *string, ref resourceRef) error {
	switch {
	case expected == nil:
		return nil
	case cur == nil:
		return apierr.New(apierr.PolicyNotFound, msgNoPolicy, ref)
	case cur.Revision != *expected:
		return apierr.New(apierr.PolicyNotFound, msgRevisionMismatch, *expected, ref.table, cur.Revision)
	}
	return nil
}

// policyHolder finds the table whose catalog entry holds ref's policy
// and, for a stream, the stream's index in it (-1 for the table), with
// DynamoDB's error for one that does not exist. Callers hold e.mu.
func (e *Engine) policyHolder(ref resourceRef) (*table, int, error) {
	t, stream := e.findHolder(ref)
	switch {
	case t != nil:
		return t, stream, nil
	case ref.stream != "":
		return nil, 0, apierr.New(apierr.ResourceNotFound, msgStreamNotFound, ref)
	}
	return nil, 0, tableNotFound(ref.table)
}

// findHolder is policyHolder without the error; t is nil when ref names
// nothing here. Callers hold e.mu.
func (e *Engine) findHolder(ref resourceRef) (t *table, stream int) {
	t = e.tables[ref.table]
	if t == nil || ref.region != e.region {
		return nil, -1
	}
	if ref.stream == "" {
		return t, -1
	}
	for i := range t.meta.Streams {
		if s := &t.meta.Streams[i]; s.Label == ref.stream && e.visible(s) {
			return t, i
		}
	}
	return nil, -1
}

// policyOf is the table's policy (stream -1) or one stream's.
func (t *table) policyOf(stream int) *policyMeta {
	if stream < 0 {
		return t.meta.Policy
	}
	return t.meta.Streams[stream].Policy
}

// setPolicy stores a new policy (nil: none) of the table or one of its
// streams. Callers hold e.mu.
func (e *Engine) setPolicy(t *table, stream int, p *policyMeta) error {
	meta := t.meta
	if stream < 0 {
		meta.Policy = p
	} else {
		meta.Streams = slices.Clone(meta.Streams)
		meta.Streams[stream].Policy = p
	}
	return e.publish(t, meta, 0)
}

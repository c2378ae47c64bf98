package main

// `sortkey mcp --endpoint URL`: the data tools on a remote DynamoDB API, a
// sortkey serve or DynamoDB itself. The tools call an http.Handler in
// process; this one forwards each call, signed with SigV4 by the AWS
// SDK's signer and default credentials, as the AWS CLI would send it.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/config"
)

const (
	msgMCPEndpoint = "--endpoint %q is not an http:// or https:// URL with a host"
	msgMCPLocal    = "%s needs the command's own database: --endpoint reaches one whose clock and fault rules are its own"
	msgMCPReach    = "the endpoint did not answer: %v"
	// maxRemoteBody bounds a forwarded request, above DynamoDB's own
	// 16 MB limit on a request.
	maxRemoteBody = 17 << 20
)

// remote forwards the DynamoDB API's calls to an endpoint.
type remote struct {
	url    string
	region string
	creds  aws.CredentialsProvider
	signer *v4.Signer
	client *http.Client
}

func remoteAPI(ctx context.Context, endpoint, region string) (http.Handler, error) {
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf(msgMCPEndpoint, endpoint)
	}
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return nil, err
	}
	if region == "" {
		region = cfg.Region
	}
	if region == "" {
		region = "us-east-1"
	}
	return &remote{url: endpoint, region: region, creds: cfg.Credentials, signer: v4.NewSigner(),
		client: &http.Client{Timeout: time.Minute}}, nil
}

func (r *remote) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.URL.Path != "/" {
		// An admin endpoint (the clock and fault tools): answered as
		// sortkey's admin endpoints answer a refusal.
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": fmt.Sprintf(msgMCPLocal, req.URL.Path)})
		return
	}
	resp, err := r.forward(req)
	if err != nil {
		remoteError(w, http.StatusServiceUnavailable, "ServiceUnavailable", fmt.Sprintf(msgMCPReach, err))
		return
	}
	defer resp.Body.Close()
	w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
	w.WriteHeader(resp.StatusCode)
	_, _ = io.Copy(w, resp.Body)
}

// forward sends req's body to the endpoint, signed.
func (r *remote) forward(req *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(io.LimitReader(req.Body, maxRemoteBody))
	if err != nil {
		return nil, err
	}
	out, err := http.NewRequestWithContext(req.Context(), http.MethodPost, r.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	out.Header.Set("X-Amz-Target", req.Header.Get("X-Amz-Target"))
	out.Header.Set("Content-Type", req.Header.Get("Content-Type"))
	creds, err := r.creds.Retrieve(req.Context())
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(body)
	if err := r.signer.SignHTTP(req.Context(), creds, out, hex.EncodeToString(sum[:]), "dynamodb", r.region, time.Now()); err != nil {
		return nil, err
	}
	return r.client.Do(out)
}

// remoteError answers as DynamoDB answers an error.
func remoteError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"__type": "com.amazonaws.dynamodb.v20120810#" + code, "message": msg})
}

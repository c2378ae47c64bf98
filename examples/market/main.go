package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/sortkeydb/sortkey"
	"github.com/sortkeydb/sortkey/examples/internal/runner"
)

func main() {
	endpoint := flag.String("endpoint", "", "DynamoDB endpoint, e.g. http://127.0.0.1:8000 for sortkey serve (empty: an embedded in-memory sortkey)")
	printAuth := flag.Bool("print-auth", false, "print the auth file for sortkey serve --auth and exit")
	flag.Parse()
	var err error
	if *printAuth {
		err = writeAuthFile(os.Stdout)
	} else {
		err = run(context.Background(), *endpoint, os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "market:", err)
		os.Exit(1)
	}
}

// sampleUsers are the users of the example's auth file.
var sampleUsers = []UserID{Rabinovich, Okafor}

// run runs the example against endpoint, or an embedded sortkey with
// access control on, as the back end and as each user in turn.
func run(ctx context.Context, endpoint string, w io.Writer) error {
	doc, err := AuthFile(TenantPolicy, sampleUsers...)
	if err != nil {
		return err
	}
	env, err := runner.StartWith(ctx, endpoint, sortkey.Options{Auth: doc})
	if err != nil {
		return err
	}
	defer env.Close()
	backEnd, users := principals(env)
	if err := CreateTables(ctx, backEnd); err != nil {
		return err
	}
	store := NewStore(backEnd, users, time.Now)
	if err := load(ctx, w, store); err != nil {
		return err
	}
	return show(ctx, demo{w: w, rec: env.Recorder}, store)
}

// principals are the clients of the back end and of each user. On AWS
// the example has only the caller's own credentials, so every session
// shares them (a real app gets each user's from Cognito); a local
// endpoint gets the auth file's keys, which a sortkey serve started with
// that file (--print-auth) checks, and one without access control ignores.
// optFns apply to every client made here.
func principals(env *runner.Env, optFns ...func(*dynamodb.Options)) (*dynamodb.Client, UserClients) {
	if env.AWS() {
		return env.Client, nil
	}
	return env.ClientWith(BackEndKeys().Provider(), optFns...), func(u UserID) *dynamodb.Client {
		return env.ClientWith(UserKeys(u).Provider(), optFns...)
	}
}

func writeAuthFile(w io.Writer) error {
	doc, err := AuthFile(TenantPolicy, sampleUsers...)
	if err == nil {
		_, err = fmt.Fprintf(w, "%s\n", doc)
	}
	return err
}

// load writes the sample data unless an earlier run did.
func load(ctx context.Context, w io.Writer, store *Store) error {
	_, err := LoadSample(ctx, store, nil)
	if errors.Is(err, ErrUserExists) {
		fmt.Fprintln(w, "sample data: already loaded by an earlier run")
		return nil
	}
	if err == nil {
		fmt.Fprintln(w, "sample data: loaded")
	}
	return err
}

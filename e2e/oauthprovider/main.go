// Command oauthprovider runs a local OAuth2 authorization server (pkg/oauthprovider) for the
// end-to-end suite: authorization code with PKCE, client credentials and refresh tokens.
//
// Start it (make bin/oauthprovider builds it) and read its URL from the first line of stdout:
//
//	bin/oauthprovider -listen 127.0.0.1:0 -client-id flowmill -client-secret s3cret -access-ttl 1h
//	→ http://127.0.0.1:41234
//
// Point an OAuth2 API credential at <URL>/authorize (Authorization URL) and <URL>/token (Access
// Token URL) with the same client id and secret. /authorize shows an "Authorize" button that
// approves at once; GET /api/me answers 200 {"sub": …} for a valid bearer token and 401
// otherwise; GET /stats counts the granted tokens by grant type ({"refreshToken": n, …}).
// The api must be allowed to reach it (FLOWMILL_EGRESS_ALLOW for 127.0.0.1). It stops on
// SIGINT or SIGTERM.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/flowmill/flowmill/pkg/oauthprovider"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "address to listen on (port 0: any free port)")
	clientID := flag.String("client-id", "flowmill", "the client id")
	clientSecret := flag.String("client-secret", "flowmill-secret", "the client secret")
	redirect := flag.String("redirect-url", "", "the only redirect_uri accepted (default: any)")
	accessTTL := flag.Duration("access-ttl", time.Hour, "lifetime of access tokens")
	flag.Parse()

	p, err := oauthprovider.New(oauthprovider.Config{ClientID: *clientID, ClientSecret: *clientSecret,
		RedirectURL: *redirect, AccessTokenTTL: *accessTTL})
	if err != nil {
		log.Fatal(err)
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatal(err)
	}
	srv := &http.Server{Handler: p.Handler(), ReadHeaderTimeout: 10 * time.Second}
	fmt.Printf("http://%s\n", ln.Addr())

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Fatal(err)
	}
}

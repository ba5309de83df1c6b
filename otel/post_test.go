package otel

import (
	"bufio"
	"context"
	"crypto/x509"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// rawServer answers each connection with answer(request head) written as
// is, then closes it (or, when the answer ends in stall, waits for the
// client to go). It returns its base URL with a password in it.
func rawServer(t *testing.T, answer func(head string) string) string {
	t.Helper()
	return "http://zevo:s3cret@" + serveConns(t, func(c net.Conn) {
		head, _ := readRequest(bufio.NewReader(c))
		a, stalls := strings.CutSuffix(answer(head), stall)
		io.WriteString(c, a)
		if stalls {
			io.Copy(io.Discard, c) // until the client closes
		}
	})
}

// serveConns serves each connection to a port of 127.0.0.1 on a goroutine
// of its own with serve, which need not close it, until the test ends;
// it returns the address.
func serveConns(t *testing.T, serve func(net.Conn)) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { l.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				serve(c)
			}()
		}
	}()
	return l.Addr().String()
}

const stall = "\x00stall"

// readRequest reads a request's head and its body (by Content-Length).
func readRequest(br *bufio.Reader) (head string, body []byte) {
	var b strings.Builder
	n := 0
	for {
		line, err := br.ReadString('\n')
		b.WriteString(line)
		if err != nil || line == "\r\n" {
			break
		}
		if k, v, ok := strings.Cut(line, ":"); ok && strings.EqualFold(k, "Content-Length") {
			n, _ = strconv.Atoi(strings.TrimSpace(v))
		}
	}
	body = make([]byte, n)
	io.ReadFull(br, body)
	return b.String(), body
}

// checkNamesEndpoint: an error names the endpoint, its password hidden.
func checkNamesEndpoint(t *testing.T, err error) {
	t.Helper()
	if err == nil || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "zevo:xxxxx@127.0.0.1:") {
		t.Errorf("error %v: want the endpoint named, its password hidden", err)
	}
}

func TestPostRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	u := "http://zevo:s3cret@" + l.Addr().String() + "/v1/traces"
	l.Close()
	var tr transport
	wait, err := tr.post(context.Background(), u, nil, "zevo", []byte("run"))
	checkNamesEndpoint(t, err)
	if wait != 0 || !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("wait %v, %v: want a retry of connection refused", wait, err)
	}
}

// TestPostMalformedAnswers: an answer zevo cannot read is a clear error
// naming the endpoint, and is tried again (the endpoint may recover).
func TestPostMalformedAnswers(t *testing.T) {
	big := strings.Repeat("x", 70<<10)
	for _, c := range []struct{ answer, want string }{
		{"", "closed before an answer"},
		{"HTTP/1.1 200 OK\r\nContent-", "closed in the middle of the answer"},
		{"HTTP/1.1 503 Service Unavailable\r\n", "closed in the middle of the answer"},
		{"garbage\r\n\r\n", `malformed answer: status line "garbage"`},
		{"HTTP/1.1 5x3 Oops\r\n\r\n", `malformed answer: status line "HTTP/1.1 5x3 Oops"`},
		{"HTTP/1.1 20\r\n\r\n", `malformed answer: status line`},
		{"HTTP/1.1 2000 OK\r\n\r\n", `malformed answer: status line`},
		{"HTTP/2 200 OK\r\n\r\n", `malformed answer: status line "HTTP/2 200 OK"`},
		{"HTTP/1.1 200 OK\r\nX-Big: " + big + "\r\n\r\n", "malformed answer: its header is over 64 KiB"},
		{"HTTP/1.1 200 OK\r\n" + strings.Repeat("X-Many: 1\r\n", 7000) + "\r\n", "over 64 KiB"},
		{"HTTP/1.1 200 OK\r\nno colon\r\n\r\n", `malformed answer: header line "no colon"`},
		{"HTTP/1.1 200 OK\r\nbad name: 1\r\n\r\n", `malformed answer: header line "bad name: 1"`},
		{"HTTP/1.1 500 Oops\r\nContent-Length: x\r\n\r\n", `malformed answer: Content-Length "x"`},
		{"HTTP/1.1 500 Oops\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", `malformed answer: Content-Length "4"`},
		{"HTTP/1.1 500 Oops\r\nContent-Length: 10\r\n\r\nabc", "500 Oops: the connection was closed in the middle of the answer"},
		{"HTTP/1.1 500 Oops\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", `500 Oops: malformed answer: chunk size "zz"`},
		{"HTTP/1.1 500 Oops\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n0\r\n\r\n", `malformed answer: no line break after a chunk`},
		{"HTTP/1.1 500 Oops\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nab", "500 Oops: the connection was closed in the middle of the answer"},
	} {
		base := rawServer(t, func(string) string { return c.answer })
		var tr transport
		wait, err := tr.post(context.Background(), base+"/v1/traces", nil, "zevo", []byte("run"))
		checkNamesEndpoint(t, err)
		if err == nil || !strings.Contains(err.Error(), c.want) || wait != 0 {
			t.Errorf("answer %.40q: wait %v, %v; want %q, tried again", c.answer, wait, err, c.want)
		}
	}
}

// TestPostReadsBodies: an error's body is read as its framing says, at
// most 512 bytes of it, past any 1xx answer.
func TestPostReadsBodies(t *testing.T) {
	long := strings.Repeat("y", 600)
	for _, c := range []struct{ answer, want string }{
		{"HTTP/1.1 500 Oops\r\nContent-Length: 6\r\n\r\nbroken and more", "500 Oops broken"},
		{"HTTP/1.1 500 Oops\r\ncontent-length: 6\r\n\r\nbroken", "500 Oops broken"},
		{"HTTP/1.1 500 Oops\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1\r\nbro\r\n3\r\nken\r\n0\r\n\r\n", "500 Oops broken"},
		{"HTTP/1.1 500 Oops\r\nTransfer-Encoding: gzip, chunked\r\n\r\n6\r\nbroken\r\n0\r\n", "500 Oops broken"},
		{"HTTP/1.1 500 Oops\r\n\r\nbroken", "500 Oops broken"},
		{"HTTP/1.1 500 Oops\r\nContent-Length: 600\r\n\r\n" + long, "500 Oops " + long[:512]},
		{"HTTP/1.1 500 Oops\r\nTransfer-Encoding: chunked\r\n\r\n258\r\n" + long + "\r\n0\r\n\r\n", "500 Oops " + long[:512]},
		{"HTTP/1.1 500 Oops\r\n\r\n" + long, "500 Oops " + long[:512]},
		{"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 500 Oops\r\nContent-Length: 6\r\n\r\nbroken", "500 Oops broken"},
		{"HTTP/1.0 500\r\n\r\nbroken", "500 broken"},
		{"HTTP/1.1 400 Bad Request\n\nno CR", "400 Bad Request no CR"},
	} {
		base := rawServer(t, func(string) string { return c.answer })
		var tr transport
		_, err := tr.post(context.Background(), base+"/v1/traces", nil, "zevo", []byte("run"))
		var serr *StatusError
		if !errors.As(err, &serr) || !strings.HasSuffix(err.Error(), ": "+c.want) {
			t.Errorf("answer %.60q: %v; want %.60q", c.answer, err, c.want)
		}
	}
	// a success is not read past its header: a body that never ends
	// does not hold it up
	base := rawServer(t, func(string) string { return "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" + stall })
	var tr transport
	if _, err := tr.post(context.Background(), base+"/v1/traces", nil, "zevo", []byte("run")); err != nil {
		t.Errorf("200 OK with a body: %v", err)
	}
}

// TestPostRequest: what the endpoint receives.
func TestPostRequest(t *testing.T) {
	type received struct {
		r    *http.Request
		body []byte
	}
	ch := make(chan received, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		ch <- received{r.Clone(context.Background()), body}
	}))
	defer srv.Close()
	u := strings.Replace(srv.URL, "http://", "http://zevo:s3cret@", 1) + "/otlp/v1/traces?tenant=a%20b"
	header := Header{{"X-Tenant", "t1"}, {"x-tenant", "t2"}, {"Content-Type", "text/plain"}, {"Host", "elsewhere"}}
	if err := Send(context.Background(), u, header, &Traces{}); err != nil {
		t.Fatal(err)
	}
	rec := <-ch
	got, body := rec.r, rec.body
	user, pw, _ := got.BasicAuth()
	for _, c := range [][2]string{
		{got.Method, "POST"},
		{got.RequestURI, "/otlp/v1/traces?tenant=a%20b"},
		{got.Host, strings.TrimPrefix(srv.URL, "http://")},
		{got.Header.Get("Content-Type"), "application/x-protobuf"},
		{strconv.FormatInt(got.ContentLength, 10), "0"},
		{got.UserAgent(), "zevo"},
		{strings.Join(got.Header.Values("X-Tenant"), ","), "t1,t2"},
		{user + ":" + pw, "zevo:s3cret"},
		{got.Header.Get("Connection"), "close"}, // one connection a request
		{strconv.FormatBool(got.Close), "true"},
		{string(body), ""},
	} {
		if c[0] != c[1] {
			t.Errorf("received %q, want %q", c[0], c[1])
		}
	}
	// a run's body arrives whole; the user's Authorization and
	// User-Agent win over the URL's and zevo's
	s := &Sender{URL: u, UserAgent: "zevo/1.2.3", Header: Header{{"Authorization", "Bearer k"}}}
	run := []byte(strings.Repeat("run\x00", 100000))
	if err := s.Send(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	rec = <-ch
	got, body = rec.r, rec.body
	if string(body) != string(run) || got.UserAgent() != "zevo/1.2.3" || got.Header.Get("Authorization") != "Bearer k" {
		t.Errorf("received %d bytes, User-Agent %q, Authorization %q", len(body), got.UserAgent(), got.Header.Get("Authorization"))
	}
	s = &Sender{URL: u, Header: Header{{"User-Agent", "mine"}}}
	if err := s.Send(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	if rec = <-ch; rec.r.UserAgent() != "mine" {
		t.Errorf("User-Agent %q", rec.r.UserAgent())
	}
}

// TestPostRefusesBadHeaderFields: a field that would break the request
// (a line break in its value) is not sent, nor tried again.
func TestPostRefusesBadHeaderFields(t *testing.T) {
	base := rawServer(t, func(string) string { return "HTTP/1.1 200 OK\r\n\r\n" })
	for _, h := range []HeaderField{{"X-Key", "a\r\nInjected: 1"}, {"bad name", "v"}, {"", "v"}, {"X-Key", "a\x00"}} {
		var tr transport
		wait, err := tr.post(context.Background(), base+"/v1/traces", Header{h}, "zevo", nil)
		checkNamesEndpoint(t, err)
		if wait != -1 || err == nil || !strings.Contains(err.Error(), "header field") {
			t.Errorf("%q: wait %v, %v", h, wait, err)
		}
	}
	if err := CheckHeaderField("X-Key", "tab\tand spaces ok"); err != nil {
		t.Error(err)
	}
}

func TestPostRetryAfter(t *testing.T) {
	for _, c := range []struct {
		answer string
		wait   time.Duration
	}{
		{"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 3\r\n\r\n", 3 * time.Second},
		{"HTTP/1.1 429 Too Many Requests\r\nretry-after:  0 \r\n\r\n", 0},
		{"HTTP/1.1 502 Bad Gateway\r\nRetry-After: 11\r\n\r\n", 0},
		{"HTTP/1.1 504 Gateway Timeout\r\nRetry-After: Wed, 21 Oct 2015 07:28:00 GMT\r\n\r\n", 0},
		{"HTTP/1.1 503 Service Unavailable\r\n\r\n", 0},
		{"HTTP/1.1 500 Internal Server Error\r\nRetry-After: 3\r\n\r\n", -1},
		{"HTTP/1.1 400 Bad Request\r\nRetry-After: 3\r\n\r\n", -1},
	} {
		base := rawServer(t, func(string) string { return c.answer })
		var tr transport
		wait, err := tr.post(context.Background(), base+"/v1/traces", nil, "zevo", nil)
		if wait != c.wait || err == nil {
			t.Errorf("%q: wait %v, %v; want %v", c.answer, wait, err, c.wait)
		}
	}
}

// TestPostRedirects: a 307 or 308 is followed with the same POST, a few
// hops at most; another 3xx is the endpoint's error. Credentials go to
// the first host (or its subdomains) only.
func TestPostRedirects(t *testing.T) {
	type hit struct{ path, body, auth, tenant string }
	var mu sync.Mutex
	var hits []hit
	handler := func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		hits = append(hits, hit{r.URL.Path, string(b), r.Header.Get("Authorization"), r.Header.Get("X-Tenant")})
		mu.Unlock()
		switch r.URL.Path {
		case "/307":
			http.Redirect(w, r, "/308", http.StatusTemporaryRedirect)
		case "/308":
			http.Redirect(w, r, "/v1/traces", http.StatusPermanentRedirect)
		case "/302":
			http.Redirect(w, r, "/v1/traces", http.StatusFound)
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusTemporaryRedirect)
		case "/nowhere":
			http.Redirect(w, r, "ftp://x/", http.StatusTemporaryRedirect)
		}
	}
	other := httptest.NewServer(http.HandlerFunc(handler))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/away" { // 127.0.0.1 to localhost: another host
			http.Redirect(w, r, strings.Replace(other.URL, "127.0.0.1", "localhost", 1)+"/v1/traces", http.StatusTemporaryRedirect)
			return
		}
		handler(w, r)
	}))
	defer srv.Close()
	base := strings.Replace(srv.URL, "http://", "http://zevo:s3cret@", 1)
	header := Header{{"X-Tenant", "t"}}
	for _, c := range []struct {
		path string
		want string // error
		hits []hit
	}{
		{path: "/307", hits: []hit{{"/307", "run", "Basic emV2bzpzM2NyZXQ=", "t"}, {"/308", "run", "Basic emV2bzpzM2NyZXQ=", "t"}, {"/v1/traces", "run", "Basic emV2bzpzM2NyZXQ=", "t"}}},
		{path: "/away", hits: []hit{{"/v1/traces", "run", "", "t"}}}, // other's only
		{path: "/302", want: "/302: 302 Found", hits: []hit{{"/302", "run", "Basic emV2bzpzM2NyZXQ=", "t"}}},
		{path: "/loop", want: "/loop: stopped after 10 redirects"},
		{path: "/nowhere", want: `/nowhere: malformed answer: 307 Temporary Redirect to "ftp://x/"`, hits: []hit{{"/nowhere", "run", "Basic emV2bzpzM2NyZXQ=", "t"}}},
	} {
		mu.Lock()
		hits = nil
		mu.Unlock()
		var tr transport
		_, err := tr.post(context.Background(), base+c.path, header, "zevo", []byte("run"))
		mu.Lock() // the handlers' writes, for the race detector
		hits := hits
		mu.Unlock()
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.HasSuffix(err.Error(), c.want)) {
			t.Errorf("%s: %v, want %q", c.path, err, c.want)
		}
		if c.want != "" {
			checkNamesEndpoint(t, err)
		}
		if c.path == "/loop" {
			if len(hits) != 11 {
				t.Errorf("%s: %d requests, want 11", c.path, len(hits))
			}
			continue
		}
		if len(hits) != len(c.hits) {
			t.Errorf("%s: %+v, want %+v", c.path, hits, c.hits)
			continue
		}
		for i := range hits {
			if hits[i] != c.hits[i] {
				t.Errorf("%s: request %d: %+v, want %+v", c.path, i+1, hits[i], c.hits[i])
			}
		}
	}
}

// TestPostTLS: https with the roots given; a certificate zevo does not
// trust is an error naming the endpoint.
func TestPostTLS(t *testing.T) {
	ch := make(chan string, 4)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ch <- r.TLS.ServerName + " " + r.Host
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshakes refused on purpose
	srv.StartTLS()
	defer srv.Close()
	roots := x509.NewCertPool()
	roots.AddCert(srv.Certificate())
	u := strings.Replace(srv.URL, "https://", "https://zevo:s3cret@", 1) + "/v1/traces"
	tr := transport{roots: roots}
	if wait, err := tr.post(context.Background(), u, nil, "zevo", []byte("run")); err != nil {
		t.Fatalf("wait %v, %v", wait, err)
	}
	if got, want := <-ch, " "+strings.TrimPrefix(srv.URL, "https://"); got != want { // no SNI for an IP address
		t.Errorf("server saw %q, want %q", got, want)
	}
	// the name is checked against the certificate, sent as SNI
	tr.getenv = func(string) string { return "" }
	localhost := strings.Replace(u, "127.0.0.1", "localhost", 1)
	_, err := tr.post(context.Background(), localhost, nil, "zevo", []byte("run"))
	if err == nil || !strings.Contains(err.Error(), "certificate") || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("localhost (not in the certificate): %v", err)
	}
	var system transport
	wait, err := system.post(context.Background(), u, nil, "zevo", []byte("run"))
	checkNamesEndpoint(t, err)
	if err == nil || !strings.Contains(err.Error(), "certificate") || wait != 0 {
		t.Errorf("an untrusted certificate: wait %v, %v", wait, err)
	}
}

// TestPostContext: the context's deadline and its cancellation end a
// request whose server stalls, in any phase.
func TestPostContext(t *testing.T) {
	stalled := rawServer(t, func(string) string { return stall })
	slowBody := rawServer(t, func(string) string { return "HTTP/1.1 500 Oops\r\nContent-Length: 10\r\n\r\nab" + stall })
	tlsStalled := strings.Replace(stalled, "http://", "https://", 1) // the handshake stalls
	for _, base := range []string{stalled, slowBody, tlsStalled} {
		for _, want := range []error{context.DeadlineExceeded, context.Canceled} {
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			if want == context.Canceled {
				cancel()
				ctx, cancel = context.WithCancel(context.Background())
				time.AfterFunc(50*time.Millisecond, cancel)
			}
			done := make(chan error, 1)
			go func() {
				var tr transport
				_, err := tr.post(ctx, base+"/v1/traces", nil, "zevo", []byte("run"))
				done <- err
			}()
			select {
			case err := <-done:
				checkNamesEndpoint(t, err)
				if !errors.Is(err, want) {
					t.Errorf("%s: %v, want %v", base, err, want)
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("%s: the request did not end with its context", base)
			}
			cancel()
		}
	}
}

// TestPostEarlyAnswer: an answer sent before the server read the body,
// which it then leaves unread, is read: the request does not wait on a
// write that cannot finish.
func TestPostEarlyAnswer(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	done := make(chan struct{})
	defer close(done)
	go func() {
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		br := bufio.NewReader(c)
		for {
			if line, err := br.ReadString('\n'); err != nil || line == "\r\n" {
				break
			}
		}
		io.WriteString(c, "HTTP/1.1 413 Request Entity Too Large\r\nContent-Length: 9\r\n\r\ntoo large")
		<-done // reading no more of the body
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var tr transport
	body := make([]byte, 64<<20) // more than the connection buffers
	wait, err := tr.post(ctx, "http://"+l.Addr().String()+"/v1/traces", nil, "zevo", body)
	if wait != -1 || err == nil || !strings.HasSuffix(err.Error(), "/v1/traces: 413 Request Entity Too Large too large") {
		t.Errorf("wait %v, %v; want the 413", wait, err)
	}
}

package otel

import (
	"bufio"
	"context"
	"crypto/x509"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// fakeProxy is an http proxy that sends every request, and every CONNECT
// tunnel, to backend whatever host they name, and keeps each request's
// head. deny, when not empty, is its answer to every request instead.
type fakeProxy struct {
	addr string
	mu   sync.Mutex
	seen []string // request heads
}

func startProxy(t *testing.T, backend, deny string) *fakeProxy {
	t.Helper()
	p := &fakeProxy{}
	p.addr = serveConns(t, func(c net.Conn) {
		br := bufio.NewReader(c)
		var head strings.Builder
		for {
			line, err := br.ReadString('\n')
			head.WriteString(line)
			if err != nil || line == "\r\n" {
				break
			}
		}
		p.mu.Lock()
		p.seen = append(p.seen, head.String())
		p.mu.Unlock()
		if deny != "" {
			io.WriteString(c, deny)
			return
		}
		b, err := net.Dial("tcp", backend)
		if err != nil {
			return
		}
		defer b.Close()
		if strings.HasPrefix(head.String(), "CONNECT ") {
			io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n")
		} else {
			io.WriteString(b, head.String())
		}
		go io.Copy(b, br)
		io.Copy(c, b)
	})
	return p
}

func (p *fakeProxy) heads() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.seen...)
}

// env is a process environment for a transport.
func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// TestPostThroughProxy: HTTP_PROXY and HTTPS_PROXY (or in lower case) are
// honoured as net/http honours them: an absolute-form request for http,
// CONNECT then TLS for https, the proxy URL's userinfo as Basic
// Proxy-Authorization; NO_PROXY and loopback addresses go direct.
func TestPostThroughProxy(t *testing.T) {
	var got []string
	var mu sync.Mutex
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, r.Host+" "+r.URL.Path+" "+string(b)+" "+r.Header.Get("Proxy-Authorization"))
		mu.Unlock()
	})
	plain := httptest.NewServer(handler)
	defer plain.Close()
	secure := httptest.NewUnstartedServer(handler)
	secure.Config.ErrorLog = log.New(io.Discard, "", 0)
	secure.StartTLS()
	defer secure.Close()
	roots := x509.NewCertPool()
	roots.AddCert(secure.Certificate())
	plainProxy := startProxy(t, strings.TrimPrefix(plain.URL, "http://"), "")
	secureProxy := startProxy(t, strings.TrimPrefix(secure.URL, "https://"), "")

	for _, c := range []struct {
		name  string
		url   string
		vars  map[string]string
		proxy *fakeProxy
		head  string // the request line the proxy saw
		got   string // what the server saw
	}{
		{
			name:  "http",
			url:   "http://collector.test:4318/v1/traces",
			vars:  map[string]string{"HTTP_PROXY": "http://me:pw@" + plainProxy.addr, "HTTPS_PROXY": "http://wrong.test"},
			proxy: plainProxy,
			head:  "POST http://collector.test:4318/v1/traces HTTP/1.1\r\n",
			got:   "collector.test:4318 /v1/traces run Basic bWU6cHc=",
		},
		{
			name:  "http, lower case, no scheme",
			url:   "http://collector.test/v1/traces",
			vars:  map[string]string{"http_proxy": plainProxy.addr, "NO_PROXY": "other.test"},
			proxy: plainProxy,
			head:  "POST http://collector.test/v1/traces HTTP/1.1\r\n",
			got:   "collector.test /v1/traces run ",
		},
		{
			// the certificate names example.com; the tunnel is to it
			name:  "https",
			url:   "https://example.com/v1/traces",
			vars:  map[string]string{"HTTPS_PROXY": "http://me:pw@" + secureProxy.addr, "HTTP_PROXY": "http://wrong.test"},
			proxy: secureProxy,
			head:  "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\nProxy-Authorization: Basic bWU6cHc=\r\n\r\n",
			got:   "example.com /v1/traces run ", // not sent on to the server
		},
		{
			name:  "https, lower case",
			url:   "https://example.com:8443/v1/traces",
			vars:  map[string]string{"https_proxy": "http://" + secureProxy.addr},
			proxy: secureProxy,
			head:  "CONNECT example.com:8443 HTTP/1.1\r\nHost: example.com:8443\r\n\r\n",
			got:   "example.com:8443 /v1/traces run ",
		},
		{
			name: "loopback goes direct",
			url:  plain.URL + "/v1/traces",
			vars: map[string]string{"HTTP_PROXY": "http://unreachable.test"},
			got:  strings.TrimPrefix(plain.URL, "http://") + " /v1/traces run ",
		},
		{
			name: "NO_PROXY",
			url:  strings.Replace(plain.URL, "127.0.0.1", "localhost", 1) + "/v1/traces",
			vars: map[string]string{"HTTP_PROXY": "http://unreachable.test", "NO_PROXY": "localhost"},
			got:  strings.Replace(plain.URL, "http://127.0.0.1", "localhost", 1) + " /v1/traces run ",
		},
		{
			name: "CGI",
			url:  plain.URL + "/v1/traces",
			vars: map[string]string{"HTTP_PROXY": "http://unreachable.test", "REQUEST_METHOD": "POST"},
			got:  strings.TrimPrefix(plain.URL, "http://") + " /v1/traces run ",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			mu.Lock()
			got = nil
			mu.Unlock()
			var before int
			if c.proxy != nil {
				before = len(c.proxy.heads())
			}
			tr := transport{roots: roots, getenv: env(c.vars)}
			if _, err := tr.post(context.Background(), c.url, nil, "zevo", []byte("run")); err != nil {
				t.Fatal(err)
			}
			mu.Lock() // the handler's writes, for the race detector
			got := got
			mu.Unlock()
			if len(got) != 1 || got[0] != c.got {
				t.Errorf("server saw %q, want %q", got, c.got)
			}
			if c.proxy == nil {
				return
			}
			heads := c.proxy.heads()[before:]
			if len(heads) != 1 || !strings.HasPrefix(heads[0], c.head) {
				t.Errorf("proxy saw %q, want %q", heads, c.head)
			}
		})
	}
}

// TestProxyErrors: a proxy that refuses, cannot be reached or is not an
// http:// one is an error naming it, its password hidden.
func TestProxyErrors(t *testing.T) {
	denying := startProxy(t, "", "HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 6\r\n\r\nwho?\r\n")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := l.Addr().String()
	l.Close()
	for _, c := range []struct {
		url, proxy, want string
	}{
		{"https://example.com/v1/traces", "http://me:pw@" + denying.addr, "proxy http://me:xxxxx@" + denying.addr + " answered CONNECT example.com:443: 407 Proxy Authentication Required who?"},
		{"http://example.com/v1/traces", "http://me:pw@" + denying.addr, "407 Proxy Authentication Required who?"},
		{"https://example.com/v1/traces", "http://me:pw@" + down, "proxy http://me:xxxxx@" + down + ": dial tcp " + down + ": connect: connection refused"},
		{"https://example.com/v1/traces", "socks5://me:pw@" + down, "proxy socks5://me:xxxxx@" + down + ": only http:// proxies are supported"},
		{"https://example.com/v1/traces", "http://me:pw@%zz", "not a URL"},
	} {
		tr := transport{getenv: env(map[string]string{"HTTPS_PROXY": c.proxy, "HTTP_PROXY": c.proxy})}
		_, err := tr.post(context.Background(), c.url, nil, "zevo", []byte("run"))
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), ":pw@") {
			t.Errorf("%s through %s: %v, want %q", c.url, c.proxy, err, c.want)
		}
	}
}

func TestUseProxy(t *testing.T) {
	for _, c := range []struct {
		url, noProxy string
		want         bool
	}{
		{"http://collector.test/", "", true},
		{"http://localhost:4318/", "", false},
		{"http://127.0.0.2/", "", false},
		{"http://[::1]:4318/", "", false},
		{"http://collector.test/", "*", false},
		{"http://collector.test/", "a.test, collector.test", false},
		{"http://COLLECTOR.test/", "collector.TEST", false},
		{"http://x.collector.test/", "collector.test", false},
		{"http://xcollector.test/", "collector.test", true},
		{"http://collector.test/", ".collector.test", true},
		{"http://x.collector.test/", ".collector.test", false},
		{"http://collector.test/", "*.collector.test", true},
		{"http://x.collector.test/", "*.collector.test", false},
		{"http://collector.test:4318/", "collector.test:4318", false},
		{"http://collector.test:4318/", "collector.test:80", true},
		{"http://collector.test/", "collector.test:80", false},
		{"https://collector.test/", "collector.test:443", false},
		{"http://10.1.2.3/", "10.0.0.0/8", false},
		{"http://11.1.2.3/", "10.0.0.0/8", true},
		{"http://10.1.2.3:4318/", "10.1.2.3", false},
		{"http://10.1.2.3:4318/", "10.1.2.3:4317", true},
		{"http://[2001:db8::1]:4318/", "[2001:db8::1]", false},
		{"http://[2001:db8::1]:4318/", "2001:db8::/32", false},
	} {
		u, err := url.Parse(c.url)
		if err != nil {
			t.Fatal(err)
		}
		if got := useProxy(u, c.noProxy); got != c.want {
			t.Errorf("%s with NO_PROXY=%q: proxy %v, want %v", c.url, c.noProxy, got, c.want)
		}
	}
}

// TestRedirectFields: credentials follow a redirect to the same host or
// a subdomain only; the new URL's userinfo replaces them.
func TestRedirectFields(t *testing.T) {
	fields := Header{{"Authorization", "Bearer k"}, {"Cookie", "c"}, {"X-Tenant", "t"}}
	for _, c := range []struct{ next, want string }{
		{"http://collector.test:9999/x", "Authorization Cookie X-Tenant"},
		{"http://eu.collector.test/x", "Authorization Cookie X-Tenant"},
		{"http://collector.example/x", "X-Tenant"},
		{"http://xcollector.test/x", "X-Tenant"},
		{"http://u:p@elsewhere.test/x", "X-Tenant Authorization"},
	} {
		first, _ := url.Parse("http://collector.test/v1/traces")
		next, _ := url.Parse(c.next)
		var names []string
		for _, f := range redirectFields(fields, first, next) {
			names = append(names, f.Name)
		}
		if got := strings.Join(names, " "); got != c.want {
			t.Errorf("%s: %s, want %s", c.next, got, c.want)
		}
	}
}

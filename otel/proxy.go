package otel

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"

	"github.com/zevo/zevo/redact"
)

// The proxy a request goes through is chosen from the environment by the
// rules of net/http's default transport: HTTPS_PROXY for https URLs,
// HTTP_PROXY for http ones (not when REQUEST_METHOD says zevo runs as a
// CGI program, where HTTP_PROXY may come from a request's Proxy field),
// each also in lower case; none for localhost and loopback addresses, nor
// for the hosts NO_PROXY names. Only http:// proxies are supported.

func (t *transport) env(names ...string) string {
	getenv := t.getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	for _, n := range names {
		if v := getenv(n); v != "" {
			return v
		}
	}
	return ""
}

// proxyFor is the proxy for u, nil when none.
func (t *transport) proxyFor(u *url.URL) (*url.URL, error) {
	var raw string
	if u.Scheme == "https" {
		raw = t.env("HTTPS_PROXY", "https_proxy")
	} else if t.env("REQUEST_METHOD") == "" {
		raw = t.env("HTTP_PROXY", "http_proxy")
	}
	if raw == "" || !useProxy(u, t.env("NO_PROXY", "no_proxy")) {
		return nil, nil
	}
	p, err := url.Parse(raw)
	if err != nil || p.Scheme == "" || p.Host == "" {
		// host:port alone, as these variables often hold
		if p2, err2 := url.Parse("http://" + raw); err2 == nil {
			p, err = p2, nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("proxy %q is not a URL", redact.URL(raw))
	}
	if p.Scheme != "http" {
		return nil, fmt.Errorf("proxy %s: only http:// proxies are supported", proxyName(p))
	}
	return p, nil
}

// proxyName is a proxy's URL as messages show it, its password hidden.
func proxyName(p *url.URL) string { return redact.URL(p.String()) }

// useProxy says whether a request to u goes through a proxy, given
// NO_PROXY: comma-separated entries, each "*" (no host), an IP address or
// CIDR range, or a domain name, which matches itself and its subdomains
// ("example.com") or its subdomains only (".example.com" or
// "*.example.com"); an address or name may end in a port.
func useProxy(u *url.URL, noProxy string) bool {
	host := strings.ToLower(u.Hostname())
	_, port, _ := net.SplitHostPort(hostPort(u))
	ip := net.ParseIP(host)
	if host == "localhost" || ip != nil && ip.IsLoopback() {
		return false
	}
	for _, entry := range strings.Split(noProxy, ",") {
		entry = strings.ToLower(strings.TrimSpace(entry))
		if entry == "" {
			continue
		}
		if entry == "*" {
			return false
		}
		if _, cidr, err := net.ParseCIDR(entry); err == nil {
			if ip != nil && cidr.Contains(ip) {
				return false
			}
			continue
		}
		name, entryPort, err := net.SplitHostPort(entry)
		if err != nil {
			name, entryPort = strings.TrimSuffix(strings.TrimPrefix(entry, "["), "]"), ""
		}
		if name == "" || entryPort != "" && entryPort != port {
			continue
		}
		if eip := net.ParseIP(name); eip != nil {
			if ip != nil && eip.Equal(ip) {
				return false
			}
			continue
		}
		name = strings.TrimPrefix(name, "*")
		if strings.HasPrefix(name, ".") {
			if strings.HasSuffix(host, name) {
				return false
			}
		} else if host == name || strings.HasSuffix(host, "."+name) {
			return false
		}
	}
	return true
}

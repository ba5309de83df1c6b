package redact

import (
	"net/url"
	"strings"
)

// hiddenURLPart replaces what URL hides, as net/url's Redacted writes it
// (a marker with brackets would be escaped in a URL).
const hiddenURLPart = "xxxxx"

// URL returns the URL s as a message may show it: the password of its
// userinfo hidden (as net/url's URL.Redacted hides it), a userinfo that is
// only a name hidden whole (that is how tokens are passed), and the value
// of a query parameter with a sensitive name (token, api_key, …) hidden.
// Text that is not a URL net/url parses may still hold credentials: all
// of it between the scheme and the last @ is hidden.
func URL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Opaque != "" {
		return hideUserinfo(s)
	}
	changed := false
	if u.User != nil {
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(u.User.Username(), hiddenURLPart)
		} else {
			u.User = url.User(hiddenURLPart)
		}
		changed = true
	}
	if u.RawQuery != "" {
		q := u.Query()
		for k, vs := range q {
			if SensitiveKey(k) {
				for i := range vs {
					vs[i] = hiddenURLPart
				}
				changed = true
			}
		}
		if changed {
			u.RawQuery = q.Encode()
		}
	}
	if !changed {
		return s // as given, not as net/url would spell it again
	}
	return u.String()
}

// hideUserinfo hides what stands between a text's scheme (or its start)
// and its last @, where a URL's userinfo would be.
func hideUserinfo(s string) string {
	start := 0
	if i := strings.Index(s, "://"); i >= 0 {
		start = i + len("://")
	}
	at := strings.LastIndexByte(s[start:], '@')
	if at < 0 {
		return s
	}
	return s[:start] + hiddenURLPart + s[start+at:]
}

package redact

import "net/url"

// URL returns the URL s with its password, if it has one, hidden (as
// net/url's Redacted hides it); s as it is when it does not parse.
func URL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return s
	}
	return u.Redacted()
}

package otel

// zevo's own HTTP/1.1 client, for the one thing otel --endpoint needs: a
// POST of a protobuf body, and of the answer its status, its Retry-After
// and the start of its body. net/http would do it, but linking net/http
// costs every zevo command at start-up (about 40 more packages
// initialised, a third more binary; docs/performance.md#start-up) and
// this is its only use.
//
// One connection per request ("Connection: close"): a run is one request
// and runs end seconds apart, so keeping connections alive would save
// little and add state to get wrong.

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
)

// Header is the fields added to each request (--header), in their order.
type Header []HeaderField

// HeaderField is one field of a Header.
type HeaderField struct{ Name, Value string }

// CheckHeaderField says why a field cannot be sent, nil when it can: its
// name must be an HTTP token, its value hold no control character other
// than a tab (a line break would start another field).
func CheckHeaderField(name, value string) error {
	if name == "" {
		return errors.New("empty header field name")
	}
	for i := 0; i < len(name); i++ {
		if !isTokenChar(name[i]) {
			return fmt.Errorf("invalid header field name %q", name)
		}
	}
	for i := 0; i < len(value); i++ {
		if c := value[i]; c < ' ' && c != '\t' || c == 0x7f {
			return fmt.Errorf("invalid header field value for %q", name)
		}
	}
	return nil
}

func isTokenChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// Fields zevo writes itself; a user's field of one of these names is not
// sent (Content-Type and framing are the request's own, as with net/http).
var ownFields = []string{"Host", "Content-Type", "Content-Length", "Transfer-Encoding", "Trailer", "Connection"}

// Fields not sent on to another host when redirected there, as net/http's
// client leaves them out: they are credentials for the first host.
var credentialFields = []string{"Authorization", "Proxy-Authorization", "Www-Authenticate", "Cookie", "Cookie2"}

func isOneOf(name string, names []string) bool {
	for _, n := range names {
		if strings.EqualFold(name, n) {
			return true
		}
	}
	return false
}

// Limits on what is read of an answer.
const (
	maxHeaderBytes = 64 << 10 // status line and fields, 1xx answers included
	maxBodyBytes   = 512      // kept for messages; the rest is not read
	maxChunkLine   = 4 << 10  // a chunk's size line
	maxRedirects   = 10       // as net/http's client
)

// transport sends requests. Its zero value is what zevo uses.
type transport struct {
	roots  *x509.CertPool      // trusted for https; nil: the system's (tests set their own)
	getenv func(string) string // nil: os.Getenv (the proxy variables)
}

// request is one POST.
type request struct {
	url       *url.URL
	header    Header // the user's, less ownFields
	userAgent string
	body      []byte
}

// answer is what is read of a response.
type answer struct {
	code       int
	status     string // as "503 Service Unavailable"
	retryAfter string
	location   string
	body       []byte // its first maxBodyBytes, not read for a 2xx
}

// errMalformed marks an answer that is not HTTP/1.x as zevo reads it.
type errMalformed struct{ what string }

func (e *errMalformed) Error() string { return "malformed answer: " + e.what }

func malformed(format string, args ...any) error {
	return &errMalformed{fmt.Sprintf(format, args...)}
}

var (
	errNoAnswer       = errors.New("the connection was closed before an answer")
	errCutAnswer      = errors.New("the connection was closed in the middle of the answer")
	errHeaderTooLarge = fmt.Errorf("malformed answer: its header is over %d KiB", maxHeaderBytes>>10)
)

// roundTrip sends req on a new connection and reads the answer. ctx
// bounds it all: dialing, its deadline on the connection, and its end
// closing the connection, which unblocks any read or write.
func (t *transport) roundTrip(ctx context.Context, req *request) (a *answer, err error) {
	u := req.url
	proxy, err := t.proxyFor(u)
	if err != nil {
		return nil, err
	}
	addr := hostPort(u)
	dialAddr := addr
	if proxy != nil {
		dialAddr = hostPort(proxy)
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", dialAddr)
	if err != nil {
		if proxy != nil {
			err = fmt.Errorf("proxy %s: %w", proxyName(proxy), err)
		}
		return nil, err
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		conn.SetDeadline(dl)
	}
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer func() {
		stop()
		if err != nil && ctx.Err() != nil {
			err = ctx.Err() // not "use of closed network connection"
		} else if errors.Is(err, os.ErrDeadlineExceeded) {
			err = context.DeadlineExceeded // the connection's, which is ctx's
		}
	}()

	var c net.Conn = conn
	if proxy != nil && u.Scheme == "https" {
		if err := connect(conn, proxy, addr); err != nil {
			return nil, err
		}
	}
	if u.Scheme == "https" {
		tc := tls.Client(conn, &tls.Config{
			ServerName: u.Hostname(), // SNI, and the name the certificate must hold
			RootCAs:    t.roots,
			NextProtos: []string{"http/1.1"},
		})
		if err := tc.HandshakeContext(ctx); err != nil {
			return nil, err
		}
		c = tc
	}
	target := u.RequestURI()
	var proxyAuth string
	if proxy != nil && u.Scheme == "http" {
		// A plain http proxy is sent the whole URL (absolute form).
		target = u.Scheme + "://" + u.Host + target
		proxyAuth = basicAuth(proxy.User)
	}
	// The request is written while the answer is read: a server may
	// answer (413, say) before it read the whole body, and then read no
	// more of it, which would leave a write blocked.
	written := make(chan error, 1)
	go func() {
		bufs := net.Buffers{requestHead(target, req, proxyAuth), req.body}
		_, err := bufs.WriteTo(c)
		written <- err
	}()
	a, err = readAnswer(bufio.NewReader(c))
	if err != nil {
		select {
		case werr := <-written:
			if werr != nil {
				return nil, werr // the cause, when the write failed first
			}
		default: // still writing: the deferred Close ends it
		}
	}
	return a, err
}

// requestHead is the request line and header fields.
func requestHead(target string, req *request, proxyAuth string) []byte {
	var b bytes.Buffer
	field := func(name, value string) {
		b.WriteString(name)
		b.WriteString(": ")
		b.WriteString(value)
		b.WriteString("\r\n")
	}
	b.WriteString("POST " + target + " HTTP/1.1\r\n")
	field("Host", req.url.Host)
	userAgent := req.userAgent
	for _, f := range req.header {
		if strings.EqualFold(f.Name, "User-Agent") {
			userAgent = f.Value
		}
	}
	field("User-Agent", userAgent)
	field("Content-Type", "application/x-protobuf")
	field("Content-Length", strconv.Itoa(len(req.body)))
	field("Connection", "close")
	if proxyAuth != "" {
		field("Proxy-Authorization", proxyAuth)
	}
	for _, f := range req.header {
		if !strings.EqualFold(f.Name, "User-Agent") {
			field(f.Name, f.Value)
		}
	}
	b.WriteString("\r\n")
	return b.Bytes()
}

// connect asks an http proxy for a tunnel to addr (host:port).
func connect(conn net.Conn, proxy *url.URL, addr string) error {
	var b bytes.Buffer
	b.WriteString("CONNECT " + addr + " HTTP/1.1\r\nHost: " + addr + "\r\n")
	if auth := basicAuth(proxy.User); auth != "" {
		b.WriteString("Proxy-Authorization: " + auth + "\r\n")
	}
	b.WriteString("\r\n")
	if _, err := conn.Write(b.Bytes()); err != nil {
		return fmt.Errorf("proxy %s: %w", proxyName(proxy), err)
	}
	// The tunnel's bytes follow the answer: read it a byte at a time so
	// that none of them is taken into a buffer the TLS client does not see.
	a, err := readAnswer(bufio.NewReaderSize(oneByteReader{conn}, 16))
	if err != nil {
		return fmt.Errorf("proxy %s: %w", proxyName(proxy), err)
	}
	if a.code/100 != 2 {
		return fmt.Errorf("proxy %s answered CONNECT %s: %s", proxyName(proxy), addr, strings.TrimSpace(a.status+" "+safeBody(a.body)))
	}
	return nil
}

// oneByteReader reads at most one byte at a time.
type oneByteReader struct{ r io.Reader }

func (o oneByteReader) Read(p []byte) (int, error) {
	if len(p) > 1 {
		p = p[:1]
	}
	return o.r.Read(p)
}

// basicAuth is the Basic credentials of a URL's userinfo, "" when none.
func basicAuth(user *url.Userinfo) string {
	if user == nil {
		return ""
	}
	pw, _ := user.Password()
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user.Username()+":"+pw))
}

// hostPort is u's host and port, the scheme's port when it names none.
func hostPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	return net.JoinHostPort(u.Hostname(), port)
}

// lineReader reads CRLF (or LF) ended lines, at most left bytes in all.
type lineReader struct {
	br   *bufio.Reader
	left int
}

func (r *lineReader) line(tooLong error) (string, error) {
	var line []byte
	for {
		frag, err := r.br.ReadSlice('\n')
		r.left -= len(frag)
		if r.left < 0 {
			return "", tooLong
		}
		line = append(line, frag...)
		if err == nil {
			break
		}
		if err != bufio.ErrBufferFull {
			if err == io.EOF && len(line) > 0 {
				err = io.ErrUnexpectedEOF
			}
			return "", err
		}
	}
	line = bytes.TrimSuffix(line[:len(line)-1], []byte("\r"))
	return string(line), nil
}

// readAnswer reads a response: its status line and fields (1xx answers
// skipped), then for any but a 2xx the start of its body, framed by
// chunks, by Content-Length or by the connection's end.
func readAnswer(br *bufio.Reader) (*answer, error) {
	r := &lineReader{br: br, left: maxHeaderBytes}
	for {
		a, chunked, length, err := readHead(r)
		if err != nil {
			return nil, err
		}
		if a.code/100 == 1 && a.code != 101 {
			continue // 100 Continue, 103 Early Hints: the answer follows
		}
		if a.code/100 == 2 || a.code == 204 || a.code == 304 {
			return a, nil
		}
		switch {
		case chunked:
			a.body, err = readChunked(r)
		case length >= 0:
			a.body = make([]byte, min(length, maxBodyBytes))
			_, err = io.ReadFull(br, a.body)
		default:
			a.body, err = io.ReadAll(io.LimitReader(br, maxBodyBytes))
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			err = errCutAnswer
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", a.status, err)
		}
		return a, nil
	}
}

// readHead reads a status line and its fields. length is -1 when the
// answer has no Content-Length.
func readHead(r *lineReader) (a *answer, chunked bool, length int, err error) {
	line, err := r.line(errHeaderTooLarge)
	if err == io.EOF {
		return nil, false, 0, errNoAnswer
	}
	if err != nil {
		return nil, false, 0, cutHead(err)
	}
	proto, status, _ := strings.Cut(line, " ")
	status = strings.TrimLeft(status, " ")
	code, err := strconv.Atoi(status[:min(3, len(status))])
	if !strings.HasPrefix(proto, "HTTP/1.") || len(proto) != 8 || len(status) < 3 || err != nil || code < 100 || (len(status) > 3 && status[3] != ' ') {
		return nil, false, 0, malformed("status line %q", shorten(line))
	}
	a = &answer{code: code, status: status}
	length = -1
	for {
		line, err := r.line(errHeaderTooLarge)
		if err != nil {
			return nil, false, 0, cutHead(err)
		}
		if line == "" {
			return a, chunked, length, nil
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok || name == "" || CheckHeaderField(name, "") != nil {
			return nil, false, 0, malformed("header line %q", shorten(line))
		}
		value = strings.Trim(value, " \t")
		switch strings.ToLower(name) {
		case "content-length":
			n, err := strconv.Atoi(value)
			if err != nil || n < 0 || length >= 0 && n != length {
				return nil, false, 0, malformed("Content-Length %q", shorten(value))
			}
			length = n
		case "transfer-encoding":
			// chunked when it is the last coding; any other ends with
			// the connection
			codings := strings.Split(value, ",")
			chunked = strings.EqualFold(strings.TrimSpace(codings[len(codings)-1]), "chunked")
		case "retry-after":
			if a.retryAfter == "" {
				a.retryAfter = value
			}
		case "location":
			if a.location == "" {
				a.location = value
			}
		}
	}
}

// cutHead names an error met reading an answer's status line or fields.
func cutHead(err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return errCutAnswer
	}
	return err
}

// readChunked reads the start of a chunked body: at most maxBodyBytes.
func readChunked(r *lineReader) ([]byte, error) {
	var body []byte
	for len(body) < maxBodyBytes {
		r.left = maxChunkLine
		line, err := r.line(malformed("a chunk size line over %d KiB", maxChunkLine>>10))
		if err != nil {
			return nil, err
		}
		hex, _, _ := strings.Cut(line, ";") // chunk extensions mean nothing here
		size, err := strconv.ParseUint(strings.TrimSpace(hex), 16, 63)
		if err != nil {
			return nil, malformed("chunk size %q", shorten(line))
		}
		if size == 0 {
			return body, nil // trailers are not read: the connection closes
		}
		n := min(int(min(size, maxBodyBytes)), maxBodyBytes-len(body))
		start := len(body)
		body = append(body, make([]byte, n)...)
		if _, err := io.ReadFull(r.br, body[start:]); err != nil {
			return nil, err
		}
		if uint64(n) < size {
			return body, nil // enough: the rest is not read
		}
		r.left = 2
		if end, err := r.line(malformed("no line break after a chunk")); err != nil || end != "" {
			if err == nil {
				err = malformed("no line break after a chunk")
			}
			return nil, err
		}
	}
	return body, nil
}

// shorten is a text of an answer as a message quotes it: its first 80
// bytes.
func shorten(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

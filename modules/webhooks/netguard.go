package webhooks

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"marquee/platform/apperr"
)

// Resolver looks up a host's addresses (net.DefaultResolver; tests give their own to play DNS
// rebinding).
type Resolver interface {
	LookupIPAddr(ctx context.Context, host string) ([]net.IPAddr, error)
}

// refusedPrefixes are the address ranges a webhook may never reach unless WEBHOOK_ALLOW_PRIVATE
// is on (development): the server's own network and the cloud's metadata service (SSRF).
var refusedPrefixes = func() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{
		"0.0.0.0/8",       // "this" network, unspecified
		"10.0.0.0/8",      // private
		"100.64.0.0/10",   // carrier-grade NAT
		"127.0.0.0/8",     // loopback
		"169.254.0.0/16",  // link-local, including the 169.254.169.254 metadata service
		"172.16.0.0/12",   // private
		"192.0.0.0/24",    // IETF protocol assignments
		"192.0.2.0/24",    // documentation
		"192.168.0.0/16",  // private
		"198.18.0.0/15",   // benchmarking
		"198.51.100.0/24", // documentation
		"203.0.113.0/24",  // documentation
		"224.0.0.0/4",     // multicast
		"240.0.0.0/4",     // reserved, broadcast
		"::/96",           // unspecified, loopback and IPv4-compatible (::a.b.c.d)
		"64:ff9b::/96",    // NAT64 (maps onto IPv4, possibly private)
		"100::/64",        // discard
		"2001:db8::/32",   // documentation
		"fc00::/7",        // unique local, including fd00:ec2::254 (the EC2 metadata service)
		"fe80::/10",       // link-local
		"ff00::/8",        // multicast
		"2002::/16",       // 6to4 (embeds an IPv4 address)
	} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}()

// MsgURLHost answers a URL whose host is not in its one plain form.
const MsgURLHost = "The URL's host must be a plain name (example.com) or address (203.0.113.7, [2001:db8::1]): no zone, no short, octal, hexadecimal or mapped form, no trailing dot."

// errHostForm is a host refused by canonicalHost.
var errHostForm = errors.New("webhooks: the host is not in its canonical form")

// canonicalHost refuses every host whose meaning depends on who reads it (a zoned
// https://[::1%25lo]:PORT/ reached a loopback listener): an IPv6 zone, IPv4 in any form but
// dotted decimal without leading zeros (0x7f.1, 2130706433, 0177.0.0.1, 127.1 mean 127.0.0.1 to
// some resolvers), IPv4-mapped or -compatible IPv6, an address not written as it prints, a
// trailing dot, and any character outside letters, digits, '-' and '.'. host is a URL's
// Hostname() (IPv6 without brackets). It runs at registration and again at dial time.
func canonicalHost(host string) error {
	if host == "" || len(host) > 253 || strings.ContainsAny(host, "%[]") {
		return errHostForm
	}
	if strings.Contains(host, ":") { // IPv6
		ip, err := netip.ParseAddr(host)
		if err != nil || ip.Zone() != "" || !ip.Is6() || ip.Is4In6() || strings.Contains(host, ".") ||
			ip.String() != strings.ToLower(host) {
			return errHostForm
		}
		return nil
	}
	labels := strings.Split(host, ".")
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return errHostForm // empty label (a trailing or double dot), or a malformed one
		}
		for _, r := range l {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
				return errHostForm
			}
		}
	}
	// A top-level label of digits, or a hexadecimal one, makes the host an address to inet_aton:
	// only dotted decimal, exactly as netip prints it, is taken as one.
	last := strings.ToLower(labels[len(labels)-1])
	numeric := strings.Trim(last, "0123456789") == "" || strings.HasPrefix(last, "0x")
	if numeric {
		ip, err := netip.ParseAddr(host)
		if err != nil || !ip.Is4() || ip.String() != host {
			return errHostForm
		}
	}
	return nil
}

// publicAddr reports whether ip is a public unicast address a webhook may reach.
func publicAddr(ip netip.Addr) bool {
	ip = ip.Unmap()                       // ::ffff:10.0.0.1 is 10.0.0.1
	if !ip.IsValid() || ip.Zone() != "" { // a zoned address matches no prefix below
		return false
	}
	for _, p := range refusedPrefixes {
		if p.Contains(ip) {
			return false
		}
	}
	return true
}

// guard applies the URL rules at registration and at every delivery.
type guard struct {
	resolver     Resolver
	allowPrivate bool // WEBHOOK_ALLOW_PRIVATE: http and private addresses, for development only
}

// checkURL validates a URL at registration: absolute http(s) without credentials, https unless
// allowPrivate, and (unless allowPrivate) a host whose every address is public.
func (g guard) checkURL(ctx context.Context, raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" || len(raw) > MaxURLLen {
		return "", apperr.Field("url", MsgURLInvalid)
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.User != nil || u.Opaque != "" || (u.Scheme != "https" && u.Scheme != "http") || u.Hostname() == "" {
		return "", apperr.Field("url", MsgURLInvalid)
	}
	if u.Scheme != "https" && !g.allowPrivate {
		// A private or loopback host is the reason to give: https would not make it allowed.
		var refused *refusedError
		if _, err := g.resolve(ctx, u.Hostname()); errors.As(err, &refused) {
			return "", apperr.Field("url", MsgURLPrivate)
		}
		return "", apperr.Field("url", MsgURLHTTPS)
	}
	if canonicalHost(u.Hostname()) != nil || !validPort(u.Port()) {
		return "", apperr.Field("url", MsgURLHost)
	}
	u.Fragment = ""
	u.Host = strings.ToLower(u.Host) // one spelling of a name: DNS does not tell case apart
	if g.allowPrivate {
		return u.String(), nil
	}
	if _, err := g.resolve(ctx, u.Hostname()); err != nil {
		var refused *refusedError
		if errors.As(err, &refused) {
			return "", apperr.Field("url", MsgURLPrivate)
		}
		return "", apperr.Field("url", MsgURLUnresolvable)
	}
	return u.String(), nil
}

// validPort reports whether port (a URL's Port(), "" for the scheme's) is 1 to 65535 in plain
// decimal.
func validPort(port string) bool {
	if port == "" {
		return true
	}
	n, err := strconv.Atoi(port)
	return err == nil && n >= 1 && n <= 65535 && strconv.Itoa(n) == port
}

type refusedError struct{ host, ip string }

func (e *refusedError) Error() string {
	return fmt.Sprintf("refused: %s resolves to %s, which is not a public address", e.host, e.ip)
}

// resolve returns the host's addresses, refusing them all when any is not public (unless
// allowPrivate): a name that mixes public and private answers is not trusted.
func (g guard) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if err := canonicalHost(host); err != nil {
		return nil, err
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		if !g.allowPrivate && !publicAddr(ip) {
			return nil, &refusedError{host, ip.String()}
		}
		return []netip.Addr{ip}, nil
	}
	addrs, err := g.resolver.LookupIPAddr(ctx, host)
	if err != nil {
		return nil, err
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("no address for %s", host)
	}
	out := make([]netip.Addr, 0, len(addrs))
	for _, a := range addrs {
		ip, ok := netip.AddrFromSlice(a.IP)
		if !ok {
			return nil, fmt.Errorf("bad address for %s", host)
		}
		if ip.Zone() != "" || (!g.allowPrivate && !publicAddr(ip)) {
			return nil, &refusedError{host, ip.String()}
		}
		out = append(out, ip.Unmap())
	}
	return out, nil
}

// client is the HTTP client of deliveries. It resolves the host itself, checks every address, and
// dials the checked address, never the name again (a second lookup could answer a private address:
// DNS rebinding). It uses no proxy, follows no redirect, and bounds the connection and the whole
// request.
func (g guard) client(connectTimeout, totalTimeout time.Duration) *http.Client {
	dialer := &net.Dialer{Timeout: connectTimeout}
	tr := &http.Transport{
		Proxy: nil,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			host, port, err := net.SplitHostPort(addr)
			if err != nil {
				return nil, err
			}
			ips, err := g.resolve(ctx, host)
			if err != nil {
				return nil, err
			}
			var last error
			for _, ip := range ips {
				c, err := dialer.DialContext(ctx, network, net.JoinHostPort(ip.String(), port))
				if err == nil {
					return c, nil
				}
				last = err
			}
			return nil, last
		},
		TLSHandshakeTimeout:   connectTimeout,
		ResponseHeaderTimeout: totalTimeout,
		MaxIdleConns:          10,
		IdleConnTimeout:       30 * time.Second,
		DisableCompression:    true,
	}
	return &http.Client{Transport: tr, Timeout: totalTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

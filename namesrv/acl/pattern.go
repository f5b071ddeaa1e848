package acl

import (
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
)

// ErrBadPattern is wrapped by every address pattern that does not parse.
var ErrBadPattern = errors.New("acl: bad address pattern")

// Pattern is one address pattern of plain_acl.yml (ACL 1.0): `*` (any
// address), an exact IPv4 or IPv6 address, a CIDR prefix (`10.0.0.0/8`), or an
// IPv4 address whose parts may each be `*`, a range `1-100` or a list `{1,2,3}`
// (`192.168.1.*`, `192.168.*`, `192.168.1.1-100`). The zero Pattern matches
// nothing.
type Pattern struct {
	text   string
	any    bool
	prefix netip.Prefix // exact addresses are full-length prefixes
	octets *[4][]octetRange
}

// octetRange is an inclusive range of one IPv4 part.
type octetRange struct{ lo, hi uint8 }

// ParsePattern parses one pattern; surrounding blanks are ignored.
func ParsePattern(text string) (Pattern, error) {
	text = strings.TrimSpace(text)
	p := Pattern{text: text}
	switch {
	case text == "":
		return p, fmt.Errorf("%w: empty", ErrBadPattern)
	case text == "*" || text == "*.*.*.*":
		p.any = true
		return p, nil
	case strings.Contains(text, "/"):
		prefix, err := netip.ParsePrefix(text)
		if err != nil {
			return p, fmt.Errorf("%w: %q: %v", ErrBadPattern, text, err)
		}
		p.prefix = unmapPrefix(prefix.Masked())
		return p, nil
	}
	if addr, err := netip.ParseAddr(text); err == nil {
		addr = addr.Unmap()
		p.prefix = netip.PrefixFrom(addr, addr.BitLen())
		return p, nil
	}
	octets, err := parseOctets(text)
	if err != nil {
		return p, fmt.Errorf("%w: %q: %v", ErrBadPattern, text, err)
	}
	p.octets = octets
	return p, nil
}

// unmapPrefix turns ::ffff:a.b.c.d/n into a.b.c.d/(n-96), so that mapped
// and plain IPv4 remotes match alike.
func unmapPrefix(prefix netip.Prefix) netip.Prefix {
	if addr := prefix.Addr(); addr.Is4In6() && prefix.Bits() >= 96 {
		return netip.PrefixFrom(addr.Unmap(), prefix.Bits()-96)
	}
	return prefix
}

// parseOctets reads the four parts of a wildcard IPv4 pattern; fewer parts
// are allowed when the last is `*` (`10.*` is `10.*.*.*`).
func parseOctets(text string) (*[4][]octetRange, error) {
	parts := strings.Split(text, ".")
	if len(parts) > 4 || (len(parts) < 4 && parts[len(parts)-1] != "*") {
		return nil, errors.New("not an IPv4 pattern of four parts")
	}
	var octets [4][]octetRange
	for i := range octets {
		part := "*"
		if i < len(parts) {
			part = parts[i]
		}
		ranges, err := parseOctet(part)
		if err != nil {
			return nil, fmt.Errorf("part %d: %w", i+1, err)
		}
		octets[i] = ranges
	}
	return &octets, nil
}

func parseOctet(part string) ([]octetRange, error) {
	switch {
	case part == "*":
		return []octetRange{{0, 255}}, nil
	case strings.HasPrefix(part, "{") && strings.HasSuffix(part, "}"):
		var ranges []octetRange
		for _, item := range strings.Split(part[1:len(part)-1], ",") {
			n, err := parseByte(item)
			if err != nil {
				return nil, err
			}
			ranges = append(ranges, octetRange{n, n})
		}
		return ranges, nil
	case strings.Contains(part, "-"):
		lo, hi, _ := strings.Cut(part, "-")
		from, err := parseByte(lo)
		if err != nil {
			return nil, err
		}
		to, err := parseByte(hi)
		if err != nil {
			return nil, err
		}
		if from > to {
			return nil, fmt.Errorf("range %s is empty", part)
		}
		return []octetRange{{from, to}}, nil
	default:
		n, err := parseByte(part)
		if err != nil {
			return nil, err
		}
		return []octetRange{{n, n}}, nil
	}
}

func parseByte(text string) (uint8, error) {
	n, err := strconv.ParseUint(strings.TrimSpace(text), 10, 8)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number from 0 to 255", text)
	}
	return uint8(n), nil
}

// Match reports whether addr is allowed by the pattern.
func (p Pattern) Match(addr netip.Addr) bool {
	addr = addr.Unmap()
	switch {
	case p.any:
		return true
	case p.octets != nil:
		if !addr.Is4() {
			return false
		}
		ip := addr.As4()
		for i, ranges := range p.octets {
			if !inRanges(ip[i], ranges) {
				return false
			}
		}
		return true
	case p.prefix.IsValid():
		return p.prefix.Contains(addr)
	}
	return false
}

func inRanges(b uint8, ranges []octetRange) bool {
	for _, r := range ranges {
		if b >= r.lo && b <= r.hi {
			return true
		}
	}
	return false
}

// String is the pattern as written.
func (p Pattern) String() string { return p.text }

// Patterns is a list of patterns; an address is allowed when one matches.
type Patterns []Pattern

// Match reports whether any pattern allows addr.
func (ps Patterns) Match(addr netip.Addr) bool {
	for _, p := range ps {
		if p.Match(addr) {
			return true
		}
	}
	return false
}

// ParsePatterns parses every item; the first bad one is the error.
func ParsePatterns(items []string) (Patterns, error) {
	var ps Patterns
	for _, item := range items {
		if strings.TrimSpace(item) == "" {
			continue
		}
		p, err := ParsePattern(item)
		if err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	return ps, nil
}

// ParsePatternList parses a `;`- or `,`-separated list of patterns (the
// adminWhiteRemoteAddresses setting); commas inside `{}` belong to a pattern.
func ParsePatternList(list string) (Patterns, error) {
	var items []string
	depth, start := 0, 0
	for i, r := range list {
		switch {
		case r == '{':
			depth++
		case r == '}':
			depth--
		case (r == ';' || r == ',') && depth == 0:
			items = append(items, list[start:i])
			start = i + 1
		}
	}
	items = append(items, list[start:])
	return ParsePatterns(items)
}

package acl

import (
	"errors"
	"net/netip"
	"testing"
)

func TestPatternMatch(t *testing.T) {
	cases := []struct {
		pattern string
		yes, no []string
	}{
		{"*", []string{"1.2.3.4", "::1"}, nil},
		{"*.*.*.*", []string{"10.0.0.1"}, nil},
		{"192.168.1.7", []string{"192.168.1.7", "::ffff:192.168.1.7"}, []string{"192.168.1.8"}},
		{"192.168.1.*", []string{"192.168.1.0", "192.168.1.255"}, []string{"192.168.2.1", "::1"}},
		{"192.168.*", []string{"192.168.200.3"}, []string{"192.169.0.1"}},
		{"192.168.1.1-100", []string{"192.168.1.1", "192.168.1.100"}, []string{"192.168.1.0", "192.168.1.101"}},
		{"192.168.1.{1,5}", []string{"192.168.1.1", "192.168.1.5"}, []string{"192.168.1.2"}},
		{"127.0.0.0/31", []string{"127.0.0.1", "127.0.0.0"}, []string{"127.0.0.2"}},
		{"::1", []string{"::1"}, []string{"127.0.0.1"}},
		{"fd00::/8", []string{"fd12::1"}, []string{"fe80::1"}},
	}
	for _, c := range cases {
		p, err := ParsePattern(c.pattern)
		if err != nil {
			t.Fatalf("%s: %v", c.pattern, err)
		}
		for _, a := range c.yes {
			if !p.Match(netip.MustParseAddr(a)) {
				t.Errorf("%s does not match %s", c.pattern, a)
			}
		}
		for _, a := range c.no {
			if p.Match(netip.MustParseAddr(a)) {
				t.Errorf("%s matches %s", c.pattern, a)
			}
		}
	}
}

func TestBadPatterns(t *testing.T) {
	for _, bad := range []string{"", "192.168.1", "192.168.1.300", "1.2.3.4.5", "1.2.3.9-2", "10.0.0.0/40", "a.b.c.d", "1.2.3.{1,x}"} {
		if _, err := ParsePattern(bad); !errors.Is(err, ErrBadPattern) {
			t.Errorf("%q: err = %v", bad, err)
		}
	}
	if (Pattern{}).Match(netip.MustParseAddr("1.2.3.4")) {
		t.Error("zero pattern matches")
	}
}

func TestParsePatternList(t *testing.T) {
	ps, err := ParsePatternList("127.0.0.1; 10.0.0.{1,2},192.168.*")
	if err != nil || len(ps) != 3 {
		t.Fatalf("patterns = %v, %v", ps, err)
	}
	if !ps.Match(netip.MustParseAddr("10.0.0.2")) || ps.Match(netip.MustParseAddr("10.0.0.3")) {
		t.Error("list match wrong")
	}
	if ps, err := ParsePatternList(""); err != nil || len(ps) != 0 {
		t.Errorf("empty list = %v, %v", ps, err)
	}
}

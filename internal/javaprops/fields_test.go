package javaprops

import (
	"errors"
	"strings"
	"testing"
)

type sample struct {
	Name    string `prop:"name"`
	On      bool   `prop:"on"`
	Count   int    `prop:"count"`
	Big     int64  `prop:"big" ext:"true"`
	Ignored string
}

var (
	errUnknown = errors.New("unknown")
	errInvalid = errors.New("invalid")
)

// TestFieldsConvertAsJava: keys in declaration order, untagged fields left
// out, values trimmed, booleans true only for "true" in any case, numbers
// within the Java type, and text back as Java's toString.
func TestFieldsConvertAsJava(t *testing.T) {
	f := NewFields[sample](errUnknown, errInvalid)
	if got := strings.Join(f.Keys(), ","); got != "name,on,count,big" {
		t.Fatalf("keys %s", got)
	}
	if f.IsExtension("count") || !f.IsExtension("big") {
		t.Fatal("ext tag not read")
	}
	var c sample
	for key, value := range map[string]string{"name": "  a b \t", "on": " TRUE ", "count": "-2147483648", "big": "9223372036854775807"} {
		if err := f.Set(&c, key, value); err != nil {
			t.Fatalf("set %s: %v", key, err)
		}
	}
	want := map[string]string{"name": "a b", "on": "true", "count": "-2147483648", "big": "9223372036854775807"}
	for key, v := range f.Values(&c) {
		if want[key] != v {
			t.Errorf("%s = %q, want %q", key, v, want[key])
		}
	}
	if err := f.Set(&c, "on", "yes"); err != nil || c.On {
		t.Fatalf("on=yes: %v, %v (Java: false)", err, c.On)
	}
	c.On = true
	if err := f.SetStrict(&c, "on", "yes"); err == nil || !c.On {
		t.Fatalf("strict on=yes: %v, %v (refused, unchanged)", err, c.On)
	}
	if err := f.SetStrict(&c, "on", " FALSE "); err != nil || c.On {
		t.Fatalf("strict on=FALSE: %v, %v", err, c.On)
	}
}

// TestFieldsRefuseWithTheirErrors: an unknown key wraps the unknown
// error, a number out of its Java type the invalid one (or, with none, a
// plain error), and c is unchanged.
func TestFieldsRefuseWithTheirErrors(t *testing.T) {
	f := NewFields[sample](errUnknown, errInvalid)
	c := sample{Count: 7}
	if err := f.Set(&c, "nope", "1"); !errors.Is(err, errUnknown) {
		t.Fatalf("unknown key: %v", err)
	}
	if err := f.Set(&c, "count", "2147483648"); !errors.Is(err, errInvalid) || c.Count != 7 {
		t.Fatalf("int overflow: %v, count %d", err, c.Count)
	}
	plain := NewFields[sample](errUnknown, nil)
	if err := plain.Set(&c, "count", "x"); err == nil || errors.Is(err, errInvalid) || !strings.Contains(err.Error(), `count="x" is not a 32-bit integer`) {
		t.Fatalf("plain invalid: %v", err)
	}
}

// TestFieldsPanicOnAnUnsupportedKind: a tagged field of another kind is a
// program's mistake, found at start.
func TestFieldsPanicOnAnUnsupportedKind(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic for a float field")
		}
	}()
	type bad struct {
		F float64 `prop:"f"`
	}
	NewFields[bad](errUnknown, errInvalid)
}

package aclsign

import "testing"

// The expected signatures were computed outside Go (Python's hmac and
// base64) over the contents the Java hook and the Go client build.
func TestSignMatchesJavaHook(t *testing.T) {
	ext := map[string]string{"topic": "TopicTest"}
	Sign(ext, []byte("body"), Credentials{AccessKey: "rocketmq2", SecretKey: "12345678"})
	if ext[AccessKey] != "rocketmq2" || ext[Signature] != "nkCYtxv6V9aq6Z98xdLAuokushs=" {
		t.Fatalf("signed ext = %v", ext)
	}
	if !Verify(ext, []byte("body"), "12345678") {
		t.Fatal("own signature does not verify")
	}
	if Verify(ext, []byte("bodx"), "12345678") || Verify(ext, []byte("body"), "12345679") {
		t.Fatal("changed body or secret verifies")
	}
}

func TestSecurityTokenBothContents(t *testing.T) {
	java := map[string]string{"topic": "TopicTest"}
	Sign(java, nil, Credentials{AccessKey: "rocketmq2", SecretKey: "12345678", SecurityToken: "tok"})
	if java[Signature] != "srLC0a0pn58kwQ14kgLHSOPpVSo=" {
		t.Fatalf("java content signature = %s", java[Signature])
	}
	// The Go client leaves the token's value out of what it signs.
	goClient := map[string]string{"topic": "TopicTest", AccessKey: "rocketmq2", SecurityToken: "tok",
		Signature: "GeeGoP9mRvDhoVp4PD5omX0prgE="}
	if !Verify(java, nil, "12345678") || !Verify(goClient, nil, "12345678") {
		t.Fatal("a token-carrying signature does not verify")
	}
	delete(goClient, SecurityToken)
	goClient[Signature] = "srLC0a0pn58kwQ14kgLHSOPpVSo="
	if Verify(goClient, nil, "12345678") {
		t.Fatal("signature over a token verifies without the token")
	}
}

func TestVerifyWithoutSignature(t *testing.T) {
	if Verify(map[string]string{AccessKey: "a"}, nil, "s") || Verify(nil, nil, "") {
		t.Fatal("no signature verifies")
	}
	ext := map[string]string{}
	Sign(ext, nil, Credentials{AccessKey: "a"})
	if len(ext) != 0 {
		t.Fatalf("empty credentials signed: %v", ext)
	}
}

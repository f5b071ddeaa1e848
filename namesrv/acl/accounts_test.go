package acl

import (
	"errors"
	"net/netip"
	"strings"
	"testing"
)

const sampleFile = `
globalWhiteRemoteAddresses:
  - 10.10.103.*
  - 192.168.0.0/16
accounts:
  - accessKey: RocketMQ
    secretKey: 12345678
    whiteRemoteAddress:
    admin: false
    defaultTopicPerm: DENY
    topicPerms:
      - topicA=DENY
  - accessKey: rocketmq2
    secretKey: "12345678"
    whiteRemoteAddress: 192.168.1.*
    admin: true
`

func TestParseAccounts(t *testing.T) {
	accounts, err := ParseAccounts([]byte(sampleFile))
	if err != nil {
		t.Fatal(err)
	}
	if accounts.Len() != 2 || !accounts.byKey["rocketmq2"].Admin || accounts.byKey["RocketMQ"].Admin {
		t.Fatalf("accounts = %+v", accounts.byKey)
	}
	if accounts.byKey["RocketMQ"].white != nil || accounts.byKey["RocketMQ"].secret != "12345678" {
		t.Fatal("first account wrong")
	}
	if !accounts.global.Match(netip.MustParseAddr("192.168.7.1")) || accounts.global.Match(netip.MustParseAddr("10.10.104.1")) {
		t.Fatal("global white list wrong")
	}
	empty, err := ParseAccounts(nil)
	if err != nil || empty.Len() != 0 {
		t.Fatalf("empty file: %v, %v", empty, err)
	}
}

func TestParseAccountsRefuses(t *testing.T) {
	cases := map[string]string{
		"yaml":      "accounts: [",
		"pattern":   "globalWhiteRemoteAddresses: [300.1.1.1]",
		"short":     "accounts:\n  - accessKey: abc\n    secretKey: topsecret1\n",
		"duplicate": "accounts:\n  - {accessKey: abcdef, secretKey: s3cret99}\n  - {accessKey: abcdef, secretKey: s3cret98}\n",
		"white":     "accounts:\n  - {accessKey: abcdef, secretKey: s3cret99, whiteRemoteAddress: 1.2.3}\n",
		"size":      "#" + strings.Repeat("x", MaxFileSize),
		"type":      "accounts:\n  - {accessKey: abcdef, secretKey: abcdefgh, admin: s3cret77}\n",
	}
	for name, text := range cases {
		_, err := ParseAccounts([]byte(text))
		if !errors.Is(err, ErrBadFile) {
			t.Errorf("%s: err = %v", name, err)
		}
		if err != nil && strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%s: the error shows a secret: %v", name, err)
		}
	}
}

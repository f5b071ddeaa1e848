package acl

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"

	"go.yaml.in/yaml/v3"
)

// ErrBadFile is wrapped by every accounts file that cannot be used.
var ErrBadFile = errors.New("acl: bad accounts file")

// MaxFileSize bounds the accounts file read (1 MiB: tens of thousands of
// accounts); a larger file is refused like one that does not parse.
const MaxFileSize = 1 << 20

// quotedValue is how the YAML library quotes a value in its errors; the
// value may be a misplaced secret, so it is cut from the message.
var quotedValue = regexp.MustCompile("`[^`]*`")

// minKeyLength is Java's shortest accessKey and secretKey (AclUtils).
const minKeyLength = 6

// Account is one entry of the accounts file. The secret key never leaves
// the package: no accessor, no String, no field in a log.
type Account struct {
	AccessKey string
	Admin     bool
	secret    string
	// white restricts where the account may be used; nil allows any address
	// (an empty whiteRemoteAddress, as in Java).
	white Patterns
}

// Accounts is one parsed accounts file; it is never changed once built, so
// requests read it without a lock.
type Accounts struct {
	global Patterns
	byKey  map[string]*Account
}

// fileFormat is plain_acl.yml of RocketMQ ACL 1.0; the topic and group
// permissions Java brokers read are accepted and ignored (a NameServer has
// no topics of its own to guard per account).
type fileFormat struct {
	GlobalWhiteRemoteAddresses []string `yaml:"globalWhiteRemoteAddresses"`
	Accounts                   []struct {
		AccessKey          string `yaml:"accessKey"`
		SecretKey          string `yaml:"secretKey"`
		WhiteRemoteAddress string `yaml:"whiteRemoteAddress"`
		Admin              bool   `yaml:"admin"`
	} `yaml:"accounts"`
}

// ParseAccounts reads a plain_acl.yml. Any error (YAML, a bad pattern, a
// missing, short or duplicate key) refuses the whole file; the message
// names the entry, never a secret.
func ParseAccounts(data []byte) (*Accounts, error) {
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("%w: %d bytes, more than %d", ErrBadFile, len(data), MaxFileSize)
	}
	var file fileFormat
	decoder := yaml.NewDecoder(bytes.NewReader(data))
	if err := decoder.Decode(&file); err != nil && len(bytes.TrimSpace(data)) > 0 {
		return nil, fmt.Errorf("%w: %s", ErrBadFile, quotedValue.ReplaceAllString(err.Error(), "`...`"))
	}
	global, err := ParsePatterns(file.GlobalWhiteRemoteAddresses)
	if err != nil {
		return nil, fmt.Errorf("%w: globalWhiteRemoteAddresses: %v", ErrBadFile, err)
	}
	accounts := &Accounts{global: global, byKey: make(map[string]*Account, len(file.Accounts))}
	for i, entry := range file.Accounts {
		where := fmt.Sprintf("accounts[%d] (accessKey %q)", i, entry.AccessKey)
		if len(entry.AccessKey) < minKeyLength || len(entry.SecretKey) < minKeyLength {
			return nil, fmt.Errorf("%w: %s: accessKey and secretKey need %d characters at least", ErrBadFile, where, minKeyLength)
		}
		if _, dup := accounts.byKey[entry.AccessKey]; dup {
			return nil, fmt.Errorf("%w: %s: accessKey listed twice", ErrBadFile, where)
		}
		account := &Account{AccessKey: entry.AccessKey, Admin: entry.Admin, secret: entry.SecretKey}
		if entry.WhiteRemoteAddress != "" {
			if account.white, err = ParsePatternList(entry.WhiteRemoteAddress); err != nil {
				return nil, fmt.Errorf("%w: %s: whiteRemoteAddress: %v", ErrBadFile, where, err)
			}
		}
		accounts.byKey[entry.AccessKey] = account
	}
	return accounts, nil
}

// Len is the number of accounts.
func (a *Accounts) Len() int { return len(a.byKey) }

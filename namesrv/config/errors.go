package config

import (
	"errors"
	"fmt"
)

// ErrBlackListed is returned by Settings.Update when a request names a key of
// the black list; its text is the remark the Java server answers with code 16.
var ErrBlackListed = errors.New("Can not update config in black list.") //nolint:staticcheck // the Java remark, verbatim

// ErrInvalidValue is returned when a command-line value cannot be converted to
// its setting's type, or a setting is out of its range (Validate).
var ErrInvalidValue = errors.New("config: invalid value")

// ErrUnknownKey is returned when a command-line flag names no setting.
var ErrUnknownKey = errors.New("config: unknown setting")

// ErrProtected is returned by Settings.Update for a key that decides the
// server's exposure or protection: such keys change only in the -c file or on
// the command line, at the next start.
var ErrProtected = errors.New("decides exposure or protection and cannot be changed over the wire")

// KeyError says which setting is wrong and why; it wraps ErrInvalidValue.
type KeyError struct {
	Key    string
	Reason string
}

func (e *KeyError) Error() string { return fmt.Sprintf("%s: %s: %s", ErrInvalidValue, e.Key, e.Reason) }

// Unwrap makes errors.Is(err, ErrInvalidValue) hold.
func (e *KeyError) Unwrap() error { return ErrInvalidValue }

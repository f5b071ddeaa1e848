package config

import "errors"

// ErrBlackListed is returned by Settings.Update when a request names a key of
// the black list; its text is the remark the Java server answers with code 16.
var ErrBlackListed = errors.New("Can not update config in black list.") //nolint:staticcheck // the Java remark, verbatim

// ErrInvalidValue is returned when a command-line value cannot be converted to
// its setting's type, or a setting is out of its range (Validate).
var ErrInvalidValue = errors.New("config: invalid value")

// ErrUnknownKey is returned when a command-line flag names no setting.
var ErrUnknownKey = errors.New("config: unknown setting")

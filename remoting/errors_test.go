package remoting

import (
	"strings"
	"testing"
)

func TestSentinelErrorsHavePackagePrefix(t *testing.T) {
	for _, err := range []error{
		ErrFrameTooLarge, ErrFrameTooShort, ErrBadHeaderLength, ErrUnknownSerializeType, ErrBadHeader,
		ErrOutOfRange, ErrConnectionClosed, ErrClientClosed, ErrTooManyPending, ErrServerClosed, ErrUnsupportedHeaderType,
	} {
		if !strings.HasPrefix(err.Error(), "remoting: ") {
			t.Errorf("%q lacks the package prefix", err)
		}
	}
}

package topicconfig

import (
	"errors"
	"strings"
	"testing"
)

func TestValidateTopic(t *testing.T) {
	for _, ok := range []string{"T", "a-b_c", "%RETRY%g", "x|y", strings.Repeat("a", 127)} {
		if err := ValidateTopic(ok); err != nil {
			t.Errorf("ValidateTopic(%q) = %v, want nil", ok, err)
		}
	}
	for _, bad := range []string{"", "a b", "a/b", "é", strings.Repeat("a", 128)} {
		if err := ValidateTopic(bad); !errors.Is(err, ErrTopicconfigInvalidTopic) {
			t.Errorf("ValidateTopic(%q) = %v, want ErrTopicconfigInvalidTopic", bad, err)
		}
	}
}

func TestValidateTopicRemarkIsJavas(t *testing.T) {
	err := ValidateTopic("a b")
	want := "The specified topic: a b, contains illegal characters, allowing only ^[%|a-zA-Z0-9_-]+$"
	if err == nil || err.Error() != want {
		t.Fatalf("remark = %v, want %q", err, want)
	}
}

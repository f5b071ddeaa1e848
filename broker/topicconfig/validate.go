package topicconfig

import "fmt"

// topicMaxLength is the longest topic name a Java broker accepts (TopicValidator).
const topicMaxLength = 127

// InvalidTopicError says why a topic name is refused; its text is the remark
// a Java broker answers, so tools show the operator the same words. It
// matches ErrTopicconfigInvalidTopic with errors.Is.
type InvalidTopicError struct {
	Remark string
}

// Error returns the Java remark.
func (e *InvalidTopicError) Error() string { return e.Remark }

// Is makes errors.Is(err, ErrTopicconfigInvalidTopic) hold.
func (e *InvalidTopicError) Is(target error) bool { return target == ErrTopicconfigInvalidTopic }

// ValidateTopic applies the Java broker's topic name rules: not blank, only
// [%|a-zA-Z0-9_-], at most 127 characters.
func ValidateTopic(topic string) error {
	if topic == "" {
		return &InvalidTopicError{Remark: "The specified topic is blank."}
	}
	for i := 0; i < len(topic); i++ {
		if !validTopicByte(topic[i]) {
			return &InvalidTopicError{Remark: fmt.Sprintf(
				"The specified topic: %s, contains illegal characters, allowing only ^[%%|a-zA-Z0-9_-]+$", topic)}
		}
	}
	if len(topic) > topicMaxLength {
		return &InvalidTopicError{Remark: fmt.Sprintf(
			"The specified topic: %s, is longer than topic max length: %d", topic, topicMaxLength)}
	}
	return nil
}

func validTopicByte(b byte) bool {
	return b == '%' || b == '|' || b == '_' || b == '-' ||
		(b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')
}

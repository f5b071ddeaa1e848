package topicconfig

import "fmt"

// topicMaxLength is the longest topic name a Java broker accepts (TopicValidator).
const topicMaxLength = 127

// ValidateTopic applies the Java broker's topic name rules: not blank, only
// [%|a-zA-Z0-9_-], at most 127 characters. The remark matches Java's so tools
// show the operator the same text.
func ValidateTopic(topic string) error {
	if topic == "" {
		return fmt.Errorf("%w: The specified topic is blank.", ErrTopicconfigInvalidTopic)
	}
	for i := 0; i < len(topic); i++ {
		if !validTopicByte(topic[i]) {
			return fmt.Errorf("%w: The specified topic: %s, contains illegal characters, allowing only ^[%%|a-zA-Z0-9_-]+$",
				ErrTopicconfigInvalidTopic, topic)
		}
	}
	if len(topic) > topicMaxLength {
		return fmt.Errorf("%w: The specified topic: %s, is longer than topic max length: %d",
			ErrTopicconfigInvalidTopic, topic, topicMaxLength)
	}
	return nil
}

func validTopicByte(b byte) bool {
	return b == '%' || b == '|' || b == '_' || b == '-' ||
		(b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')
}

package topicconfig

import "errors"

// Sentinel errors of the topic config store; callers test them with errors.Is.
var (
	// ErrTopicconfigInvalidTopic marks a topic name the Java broker would refuse.
	ErrTopicconfigInvalidTopic = errors.New("topicconfig: invalid topic name")
	// ErrTopicconfigSystemTopic marks an admin change aimed at a system topic.
	ErrTopicconfigSystemTopic = errors.New("topicconfig: topic conflicts with a system topic")
	// ErrTopicconfigCorruptFile marks a topics.json that cannot be decoded.
	ErrTopicconfigCorruptFile = errors.New("topicconfig: corrupt topics file")
)

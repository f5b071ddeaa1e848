package config

import (
	"slices"
	"testing"

	"github.com/sirupsen/logrus"
)

// TestEveryKeyIsDescribed: docs/configuration.md says what every key does,
// so a key added to Config without a line in descriptions.go fails here
// (and a line left behind by a removed key too).
func TestEveryKeyIsDescribed(t *testing.T) {
	for _, key := range Keys() {
		if Description(key) == "" {
			t.Errorf("%s has no description in descriptions.go", key)
		}
	}
	for key := range descriptions {
		if !slices.Contains(Keys(), key) {
			t.Errorf("descriptions.go describes %s, which is not a key", key)
		}
	}
}

func TestBlackListAndChoicesAsTheUpdateSeesThem(t *testing.T) {
	for _, key := range []string{"configBlackList", "configStorePath", "kvConfigPath", "rocketmqHome"} {
		if !IsBlackListedByDefault(key) {
			t.Errorf("%s not black-listed", key)
		}
	}
	running := NewSettings(Default(), logrus.NewEntry(logrus.New())).BlackList()
	for _, key := range Keys() {
		if IsBlackListedByDefault(key) != slices.Contains(running, key) {
			t.Errorf("%s: IsBlackListedByDefault says %v, a default server's BlackList %v", key, IsBlackListedByDefault(key), running)
		}
	}
	if IsBlackListedByDefault("listenPort") {
		t.Error("listenPort black-listed")
	}
	if got := Choices("logFormat"); !slices.Equal(got, []string{LogFormatText, LogFormatJSON}) {
		t.Errorf("logFormat choices %v", got)
	}
	if Choices("listenPort") != nil {
		t.Error("listenPort has choices")
	}
}

package config

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// With enableControllerInNamesrv the NameServer's -c file holds the
// embedded controller's keys, and UPDATE_NAMESRV_CONFIG rewrote a key it
// did not know in that file: controllerStorePath moved the controller's
// store at the next start. The controller's keys are protected.
func TestUpdateRefusesTheEmbeddedControllersKeys(t *testing.T) {
	s, _ := captureServer(t)
	file, _ := os.ReadFile(s.Get().ConfigStorePath)
	for _, key := range []string{"enableControllerInNamesrv", "controllerStorePath", "controllerDLegerPeers",
		"controllerDLegerSelfId", "controllerDLegerGroup", "enableElectUncleanMaster", "controllerMaxBrokerSets"} {
		if !IsProtected(key) {
			t.Errorf("%s is not protected", key)
		}
		_, err := s.Update(map[string]string{"orderMessageEnable": "true", key: "x"})
		if !errors.Is(err, ErrProtected) || !strings.HasPrefix(err.Error(), key+" ") {
			t.Errorf("%s: err = %v", key, err)
		}
	}
	if now, _ := os.ReadFile(s.Get().ConfigStorePath); string(now) != string(file) || s.Get().OrderMessageEnable {
		t.Fatal("a refused update changed the settings or the file")
	}
	// Keys both have keep the NameServer's rules.
	if IsProtected("logLevel") || IsProtected("orderMessageEnable") {
		t.Fatal("a NameServer key is protected as the controller's")
	}
}

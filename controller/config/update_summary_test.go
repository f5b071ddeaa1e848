package config

import "testing"

func TestAppliesAtRestartOnlyOnlineKeysOfLoopsStartedWithTheNode(t *testing.T) {
	for _, key := range restartKeys {
		if !ChangeableOnline(key) {
			t.Errorf("%s applies at restart but is not changeable online", key)
		}
	}
	if !AppliesAtRestart("scanInactiveMasterInterval") || AppliesAtRestart("enableElectUncleanMaster") {
		t.Fatal("AppliesAtRestart")
	}
}

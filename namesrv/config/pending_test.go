package config

import "testing"

// TestPendingRestartListsStoredKeysThatDoNotRun: a key that is not live,
// updated, is pending with the start's value running; a live key is not;
// setting it back to the start's value leaves nothing pending.
func TestPendingRestartListsStoredKeysThatDoNotRun(t *testing.T) {
	s2, _ := captureServer(t)
	running := s2.Get().Values()["unRegisterBrokerQueueCapacity"]
	if _, err := s2.Update(map[string]string{"unRegisterBrokerQueueCapacity": "77", "orderMessageEnable": "true"}); err != nil {
		t.Fatal(err)
	}
	pending := s2.PendingRestart()
	if p := pending["unRegisterBrokerQueueCapacity"]; p.Running != running || p.Next != "77" || len(pending) != 1 {
		t.Fatalf("pending %+v, want unRegisterBrokerQueueCapacity running %s, next 77", pending, running)
	}
	if _, err := s2.Update(map[string]string{"unRegisterBrokerQueueCapacity": running}); err != nil {
		t.Fatal(err)
	}
	if pending := s2.PendingRestart(); len(pending) != 0 {
		t.Fatalf("pending %+v after setting the start's value back", pending)
	}
}

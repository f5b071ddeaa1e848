package node

// Remarks of answers that Java gives in these words.
const (
	remarkNoResponseCode   = "not set any response code"
	remarkHeartbeatSuccess = "Heart beat success"
	remarkBlackList        = "Can not update config in black list."
)

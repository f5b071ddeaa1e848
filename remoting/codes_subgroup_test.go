package remoting

import "testing"

func TestSubscriptionGroupCodesMatchJava(t *testing.T) {
	// Values from Java's RequestCode / ResponseCode (apache/rocketmq 5.3.3).
	for name, c := range map[string][2]int32{
		"UPDATE_AND_CREATE_SUBSCRIPTIONGROUP": {UPDATE_AND_CREATE_SUBSCRIPTIONGROUP, 200},
		"GET_ALL_SUBSCRIPTIONGROUP_CONFIG":    {GET_ALL_SUBSCRIPTIONGROUP_CONFIG, 201},
		"GET_CONSUMER_CONNECTION_LIST":        {GET_CONSUMER_CONNECTION_LIST, 203},
		"DELETE_SUBSCRIPTIONGROUP":            {DELETE_SUBSCRIPTIONGROUP, 207},
		"GET_CONSUME_STATS":                   {GET_CONSUME_STATS, 208},
		"CONSUMER_NOT_ONLINE":                 {CONSUMER_NOT_ONLINE, 206},
		"SUBSCRIPTION_GROUP_NOT_EXIST":        {SUBSCRIPTION_GROUP_NOT_EXIST, 26},
	} {
		if c[0] != c[1] {
			t.Errorf("%s = %d, want %d", name, c[0], c[1])
		}
	}
	if got := RequestCodeName(GET_CONSUME_STATS); got != "GET_CONSUME_STATS" {
		t.Errorf("RequestCodeName(208) = %q", got)
	}
}

package subgroup

import "testing"

// javaDefaultGroupJSON is what Java 5.3.3's fastjson writes for
// `new SubscriptionGroupConfig()` named G.
const javaDefaultGroupJSON = `{"attributes":{},"brokerId":0,"consumeBroadcastEnable":true,"consumeEnable":true,"consumeFromMinEnable":true,"consumeMessageOrderly":false,"consumeTimeoutMinute":15,"groupName":"G","groupRetryPolicy":{"type":"CUSTOMIZED"},"groupSysFlag":0,"notifyConsumerIdsChangedEnable":true,"retryMaxTimes":16,"retryQueueNums":1,"whichBrokerWhenConsumeSlowly":1}`

func TestConfigEncodesAsJava(t *testing.T) {
	got, err := NewConfig("G").Encode()
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != javaDefaultGroupJSON {
		t.Fatalf("encode:\n got %s\nwant %s", got, javaDefaultGroupJSON)
	}
}

func TestDecodeConfigKeepsDefaultsForMissingMembers(t *testing.T) {
	c, err := DecodeConfig([]byte(`{"groupName":"G","consumeEnable":false,"groupRetryPolicy":{"type":"EXPONENTIAL","exponentialRetryPolicy":{"initial":5000,"max":7200000,"multiplier":2}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if c.ConsumeEnable || c.RetryMaxTimes != 16 || c.WhichBrokerWhenConsumeSlowly != 1 || c.Attributes == nil {
		t.Fatalf("decoded %+v", c)
	}
	want := "GroupRetryPolicy{type=EXPONENTIAL, exponentialRetryPolicy=ExponentialRetryPolicy{initial=5000, max=7200000, multiplier=2}, customizedRetryPolicy=null}"
	if got := c.GroupRetryPolicy.String(); got != want {
		t.Fatalf("policy text %q", got)
	}
	if _, err := DecodeConfig([]byte(`{"groupName":`)); err == nil {
		t.Fatal("truncated JSON decoded")
	}
}

func TestConfigStringIsJavaToString(t *testing.T) {
	c := NewConfig("G")
	c.ConsumeBroadcastEnable, c.ConsumeFromMinEnable = false, false
	want := "SubscriptionGroupConfig{groupName=G, consumeEnable=true, consumeFromMinEnable=false, consumeBroadcastEnable=false, " +
		"consumeMessageOrderly=false, retryQueueNums=1, retryMaxTimes=16, groupRetryPolicy=GroupRetryPolicy{type=CUSTOMIZED, " +
		"exponentialRetryPolicy=null, customizedRetryPolicy=null}, brokerId=0, whichBrokerWhenConsumeSlowly=1, " +
		"notifyConsumerIdsChangedEnable=true, groupSysFlag=0, consumeTimeoutMinute=15, subscriptionDataSet=null, attributes={}}"
	if got := c.String(); got != want {
		t.Fatalf("toString:\n got %s\nwant %s", got, want)
	}
	c.GroupRetryPolicy.CustomizedRetryPolicy = &CustomizedRetryPolicy{Next: []int64{1000, 5000}}
	if got := c.GroupRetryPolicy.String(); got != "GroupRetryPolicy{type=CUSTOMIZED, exponentialRetryPolicy=null, customizedRetryPolicy=CustomizedRetryPolicy{next=[1000, 5000]}}" {
		t.Fatalf("customized policy text %q", got)
	}
}

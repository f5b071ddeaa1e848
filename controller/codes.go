package controller

// Response codes of the controller (Java's ResponseCode, 2000-2016), plus
// success. The generic 1, 3 and 16 belong to the handlers.
const (
	CodeSuccess                    = 0
	CodeFencedMasterEpoch          = 2000
	CodeFencedSyncStateSetEpoch    = 2001
	CodeInvalidMaster              = 2002
	CodeInvalidReplicas            = 2003
	CodeMasterNotAvailable         = 2004
	CodeInvalidRequest             = 2005
	CodeBrokerNotAlive             = 2006
	CodeNotLeader                  = 2007
	CodeBrokerMetadataNotExist     = 2008
	CodeInvalidCleanBrokerMetadata = 2009
	CodeBrokerNeedToBeRegistered   = 2010
	CodeMasterStillExist           = 2011
	CodeElectMasterFailed          = 2012
	CodeAlterSyncStateSetFailed    = 2013
	CodeBrokerIDInvalid            = 2014
	CodeJRaftInternalError         = 2015
	CodeBrokerLiveInfoNotExists    = 2016
)

// Remarks Java gives with codes the handlers answer outside this package.
const (
	RemarkNotLeader           = "The controller is not in leader state"
	RemarkHeartbeatNoBrokerID = "Heart beat with empty brokerId"
)

// Result is a validated request: Code and Remark to answer with, and on
// success the Events to commit before the Header and Body are sent. A
// failed request has no events.
type Result[H any] struct {
	Code   int
	Remark string
	Header H
	Body   []byte
	Events []Event
}

func (r *Result[H]) fail(code int, remark string) *Result[H] {
	r.Code, r.Remark = code, remark
	return r
}

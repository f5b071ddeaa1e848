package admin

import (
	"errors"
	"fmt"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/broker/subgroup"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// DeleteSubscriptionGroupRequestHeader is the header of
// DELETE_SUBSCRIPTIONGROUP; mqadmin builds it too.
type DeleteSubscriptionGroupRequestHeader struct {
	GroupName   string `rmq:"groupName,required"`
	CleanOffset *bool  `rmq:"cleanOffset"` // no offsets here: accepted and ignored
}

// UpdateAndCreateSubscriptionGroup creates or replaces one group from the
// SubscriptionGroupConfig JSON body (Java updateAndCreateSubscriptionGroup).
// Unlike Java, a body over subgroup.MaxConfigBytes, an illegal group name
// and a table already at subgroup.MaxGroups are refused.
func (h *GroupHandlers) UpdateAndCreateSubscriptionGroup(req *remoting.Command) *remoting.Command {
	if len(req.Body) > subgroup.MaxConfigBytes {
		return remoting.NewResponse(req, remoting.INVALID_PARAMETER,
			fmt.Sprintf("subscription group config of %d bytes, more than %d", len(req.Body), subgroup.MaxConfigBytes))
	}
	config, err := subgroup.DecodeConfig(req.Body)
	if err != nil {
		return remoting.NewResponse(req, remoting.SYSTEM_ERROR, err.Error())
	}
	if err := h.groups.Put(config); err != nil {
		code := int32(remoting.SYSTEM_ERROR)
		if errors.Is(err, subgroup.ErrInvalidGroup) || errors.Is(err, subgroup.ErrTooManyGroups) {
			code = remoting.INVALID_PARAMETER
		}
		if code == remoting.SYSTEM_ERROR && !errors.Is(err, subgroup.ErrAttributes) {
			h.logs.Log(h.log, logrus.ErrorLevel, logrus.Fields{"group": config.GroupName}, err, "update subscription group failed")
		}
		return remoting.NewResponse(req, code, err.Error())
	}
	h.logs.Log(h.log, logrus.InfoLevel, logrus.Fields{"group": config.GroupName}, nil, "subscription group created or updated")
	return remoting.NewResponse(req, remoting.SUCCESS, "")
}

// GetAllSubscriptionGroup answers the whole table as Java's
// SubscriptionGroupManager JSON.
func (h *GroupHandlers) GetAllSubscriptionGroup(req *remoting.Command) *remoting.Command {
	return h.answer(req, func() ([]byte, error) { return subgroup.EncodeWrapper(h.groups.Wrapper()) })
}

// DeleteSubscriptionGroup removes one group; a missing one is a success, as
// in Java (mqadmin deleteSubGroup checks first).
func (h *GroupHandlers) DeleteSubscriptionGroup(req *remoting.Command) *remoting.Command {
	var header DeleteSubscriptionGroupRequestHeader
	if err := remoting.DecodeHeader(req, &header); err != nil {
		return remoting.NewResponse(req, remoting.SYSTEM_ERROR, err.Error())
	}
	deleted, err := h.groups.Delete(header.GroupName)
	if err != nil {
		h.logs.Log(h.log, logrus.ErrorLevel, logrus.Fields{"group": header.GroupName}, err, "delete subscription group failed")
		return remoting.NewResponse(req, remoting.SYSTEM_ERROR, err.Error())
	}
	if deleted {
		h.logs.Log(h.log, logrus.InfoLevel, logrus.Fields{"group": header.GroupName}, nil, "subscription group deleted")
	}
	return remoting.NewResponse(req, remoting.SUCCESS, "")
}

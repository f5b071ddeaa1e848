package admin

import (
	"errors"
	"slices"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/broker/topicconfig"
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/internal/portguard"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// TopicsChangedNotifier is told about created or updated topics, so they are
// registered with the NameServers at once (the registration agent).
type TopicsChangedNotifier interface {
	TopicsChanged(configs ...route.TopicConfig)
}

// Handlers answers the broker admin requests from one topic store.
type Handlers struct {
	store       *topicconfig.Store
	notifier    TopicsChangedNotifier
	runtimeInfo func() map[string]string
	epochCache  func() *wire.EpochEntryCache
	log         *logrus.Entry
}

// New returns the handlers. notifier may be nil (nothing to register);
// runtimeInfo supplies the GET_BROKER_RUNTIME_INFO table.
func New(store *topicconfig.Store, notifier TopicsChangedNotifier, runtimeInfo func() map[string]string, log *logrus.Entry) *Handlers {
	if log == nil {
		log = logrus.NewEntry(logrus.StandardLogger())
	}
	return &Handlers{store: store, notifier: notifier, runtimeInfo: runtimeInfo, log: log}
}

// Register attaches the handlers to a server (or its guard). Writes touch topics.json, so
// they run off the event loop.
func (h *Handlers) Register(srv portguard.Registrar) {
	srv.Handle(remoting.UPDATE_AND_CREATE_TOPIC, h.wrap(h.UpdateAndCreateTopic), remoting.Slow())
	srv.Handle(remoting.DELETE_TOPIC_IN_BROKER, h.wrap(h.DeleteTopicInBroker), remoting.Slow())
	srv.Handle(remoting.GET_ALL_TOPIC_CONFIG, h.wrap(h.GetAllTopicConfig), remoting.Slow())
	srv.Handle(remoting.GET_BROKER_RUNTIME_INFO, h.wrap(h.GetBrokerRuntimeInfo))
	srv.Handle(wire.CodeGetBrokerEpochCache, h.wrap(h.GetBrokerEpochCache))
}

func (h *Handlers) wrap(handle func(*remoting.Command) *remoting.Command) remoting.Handler {
	return func(_ *remoting.Conn, req *remoting.Command) *remoting.Command { return handle(req) }
}

// mixedMessageType is refused while enableMixedMessageType is off (its default).
const mixedMessageType = "MIXED"

// UpdateAndCreateTopic creates or replaces one topic (Java
// AdminBrokerProcessor.updateAndCreateTopic): validation, attribute rules,
// idempotent success when nothing changes, otherwise store and register.
func (h *Handlers) UpdateAndCreateTopic(req *remoting.Command) *remoting.Command {
	var header CreateTopicRequestHeader
	if err := remoting.DecodeHeader(req, &header); err != nil {
		return remoting.NewResponse(req, remoting.SYSTEM_ERROR, err.Error())
	}
	log := h.log.WithField("topic", header.Topic)
	if err := topicconfig.ValidateTopic(header.Topic); err != nil {
		return remoting.NewResponse(req, remoting.INVALID_PARAMETER, err.Error())
	}
	if h.store.IsSystemTopic(header.Topic) {
		return remoting.NewResponse(req, remoting.INVALID_PARAMETER, "The topic["+header.Topic+"] is conflict with system topic.")
	}
	mods := map[string]string{}
	if header.Attributes != nil {
		var err error
		if mods, err = topicconfig.ParseAttributeModification(*header.Attributes); err != nil {
			return remoting.NewResponse(req, remoting.SYSTEM_ERROR, err.Error())
		}
	}
	if mods["+message.type"] == mixedMessageType {
		return remoting.NewResponse(req, remoting.INVALID_PARAMETER, "MIXED message type is not supported.")
	}
	current, exists := h.store.Get(header.Topic)
	attributes, err := topicconfig.AlterAttributes(!exists, current.Attributes, mods)
	if err != nil {
		return remoting.NewResponse(req, remoting.SYSTEM_ERROR, err.Error())
	}
	tc := route.TopicConfig{
		TopicName:       header.Topic,
		ReadQueueNums:   header.ReadQueueNums,
		WriteQueueNums:  header.WriteQueueNums,
		Perm:            header.Perm,
		TopicFilterType: header.TopicFilterType,
		Order:           header.Order,
		Attributes:      attributes,
	}
	if header.TopicSysFlag != nil {
		tc.TopicSysFlag = *header.TopicSysFlag
	}
	changed, err := h.store.Put(tc)
	if err != nil {
		log.WithError(err).Error("update or create topic failed")
		return remoting.NewResponse(req, remoting.SYSTEM_ERROR, err.Error())
	}
	if !changed {
		log.Info("topic config unchanged; nothing to register")
		return remoting.NewResponse(req, remoting.SUCCESS, "")
	}
	log.WithFields(logrus.Fields{"readQueueNums": tc.ReadQueueNums, "writeQueueNums": tc.WriteQueueNums, "perm": tc.Perm}).
		Info("topic created or updated")
	if h.notifier != nil {
		h.notifier.TopicsChanged(tc)
	}
	return remoting.NewResponse(req, remoting.SUCCESS, "")
}

// DeleteTopicInBroker removes one topic (Java deleteTopic). The NameServers
// learn it from DELETE_TOPIC_IN_NAMESRV, which mqadmin sends afterwards.
func (h *Handlers) DeleteTopicInBroker(req *remoting.Command) *remoting.Command {
	var header DeleteTopicRequestHeader
	if err := remoting.DecodeHeader(req, &header); err != nil {
		return remoting.NewResponse(req, remoting.SYSTEM_ERROR, err.Error())
	}
	if header.Topic == "" {
		return remoting.NewResponse(req, remoting.INVALID_PARAMETER, "The specified topic is blank.")
	}
	if h.store.IsSystemTopic(header.Topic) {
		return remoting.NewResponse(req, remoting.INVALID_PARAMETER, "The topic["+header.Topic+"] is conflict with system topic.")
	}
	deleted, err := h.store.Delete(header.Topic)
	if err != nil {
		h.log.WithError(err).WithField("topic", header.Topic).Error("delete topic failed")
		return remoting.NewResponse(req, remoting.SYSTEM_ERROR, err.Error())
	}
	h.log.WithFields(logrus.Fields{"topic": header.Topic, "existed": deleted}).Info("topic deleted")
	return remoting.NewResponse(req, remoting.SUCCESS, "")
}

// GetAllTopicConfig answers the whole topic table as a
// TopicConfigAndMappingSerializeWrapper; a slave copies its master with it.
func (h *Handlers) GetAllTopicConfig(req *remoting.Command) *remoting.Command {
	wrapper := h.store.Wrapper()
	resp := remoting.NewResponse(req, remoting.SUCCESS, "")
	resp.ExtFields = remoting.EncodeHeader(GetAllTopicConfigResponseHeader{TotalTopicNum: int32(len(wrapper.TopicConfigTable))})
	body, err := EncodeTopicConfigAndMappingWrapper(wrapper)
	if err != nil {
		return remoting.NewResponse(req, remoting.SYSTEM_ERROR, err.Error())
	}
	resp.Body = body
	return resp
}

// GetBrokerRuntimeInfo answers the runtime table `mqadmin clusterList` reads.
func (h *Handlers) GetBrokerRuntimeInfo(req *remoting.Command) *remoting.Command {
	table := map[string]string{}
	if h.runtimeInfo != nil {
		table = h.runtimeInfo()
	}
	resp := remoting.NewResponse(req, remoting.SUCCESS, "")
	resp.Body = route.EncodeKVTable(nil, &route.KVTable{Table: table})
	return resp
}

// errNoWrapper marks an encoded registration body without the wrapper member.
var errNoWrapper = errors.New("admin: registration body has no topicConfigSerializeWrapper")

// wrapperMemberPrefix is how EncodeRegisterBrokerBody starts when the filter
// server list is empty: what follows is the wrapper object, then one '}'.
const wrapperMemberPrefix = `{"filterServerList":[],"topicConfigSerializeWrapper":`

// EncodeTopicConfigAndMappingWrapper writes Java's
// TopicConfigAndMappingSerializeWrapper JSON (dataVersion, mappingDataVersion,
// topicConfigTable, topicQueueMappingDetailMap, topicQueueMappingInfoMap). The
// route package writes that object only inside a RegisterBrokerBody, so it is
// cut out of one rather than written a second time here.
func EncodeTopicConfigAndMappingWrapper(wrapper route.TopicConfigSerializeWrapper) ([]byte, error) {
	body := route.EncodeRegisterBrokerBody(nil, &route.RegisterBrokerBody{
		TopicConfigSerializeWrapper: wrapper,
		FilterServerList:            []string{},
	}, route.DataVersion{})
	if len(body) < len(wrapperMemberPrefix)+1 || string(body[:len(wrapperMemberPrefix)]) != wrapperMemberPrefix {
		return nil, errNoWrapper
	}
	return slices.Clone(body[len(wrapperMemberPrefix) : len(body)-1]), nil
}

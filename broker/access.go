package broker

import (
	"github.com/gonamesrv/gonamesrv/broker/admin"
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/namesrv/acl"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// accessClasses is the access class of every code the broker's port
// serves, decided with the NameServer's classes (namesrv/acl): a write
// needs an admin account (Java's broker ACL 1.0 asks admin for the same
// codes: topic, group and config writes), a read any account's valid
// signature, and the controller-mode codes, which move the broker's role
// or the master's in-sync view, are broker control like REGISTER_BROKER:
// an admin account or an address of globalWhiteRemoteAddresses. A code
// left out is an admin write (portguard.Guard); TestEveryCodeHasAClass
// keeps the table beside the registrations.
var accessClasses = map[int32]acl.Class{
	remoting.UPDATE_BROKER_CONFIG:                acl.AdminWrite, // namesrvAddr, brokerPermission
	remoting.UPDATE_AND_CREATE_TOPIC:             acl.AdminWrite,
	remoting.DELETE_TOPIC_IN_BROKER:              acl.AdminWrite,
	remoting.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP: acl.AdminWrite,
	remoting.DELETE_SUBSCRIPTIONGROUP:            acl.AdminWrite,

	remoting.GET_BROKER_CONFIG:                 acl.AdminRead,
	remoting.GET_BROKER_RUNTIME_INFO:           acl.AdminRead,
	remoting.GET_ALL_TOPIC_CONFIG:              acl.AdminRead, // mqadmin and a slave's copy of its master
	remoting.GET_ALL_SUBSCRIPTIONGROUP_CONFIG:  acl.AdminRead,
	remoting.GET_TOPIC_STATS_INFO:              acl.AdminRead,
	remoting.GET_CONSUME_STATS:                 acl.AdminRead,
	remoting.GET_SYSTEM_TOPIC_LIST_FROM_BROKER: acl.AdminRead,
	admin.CodeGetBrokerHAStatus:                acl.AdminRead,
	wire.CodeGetBrokerEpochCache:               acl.AdminRead,

	wire.CodeNotifyBrokerRoleChanged: acl.BrokerCtl, // the controller's
	wire.CodeBrokerHeartbeat:         acl.BrokerCtl, // a slave's, to its master
}

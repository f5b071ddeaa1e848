package httpapi

import "net/http"

// nsaddr is the address server the RocketMQ clients poll
// (http://HOST:PORT/rocketmq/nsaddr, or /rocketmq/{subgroup} with the Java
// client's rocketmq.namesrv.domain.subgroup; a unit's "-unit?nofix=1" form
// is a subgroup too): the NameServer list as plain text, "ip:port;ip:port".
// Every subgroup gets the same list (addressServerList).
func nsaddr(src *Source, w http.ResponseWriter, _ *http.Request) {
	writeText(w, http.StatusOK, src.NameServers())
}

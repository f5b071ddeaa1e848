package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// requestTimeout is the Java tools' default per-request timeout.
const requestTimeout = 5 * time.Second

// faqURL ends every server error, as Java's MQClientException message does.
const faqURL = "https://rocketmq.apache.org/docs/bestPractice/06FAQ"

// serverError is a non-success answer, worded like Java's MQClientException
// plus the address that answered, so an operator knows which server said no.
type serverError struct {
	addr   string
	code   int32
	remark string
}

func (e *serverError) Error() string {
	text := fmt.Sprintf("CODE: %d  DESC: %s", e.code, e.remark)
	if !strings.Contains(e.remark, "\nSee ") {
		text += "\nFor more information, please visit the url, " + faqURL
	}
	return fmt.Sprintf("%s answered: %s", e.addr, text)
}

// errNoNameServer marks a command run without -n and without NAMESRV_ADDR.
var errNoNameServer = errors.New("no name server address: use -n 'host:port;host:port' or set NAMESRV_ADDR")

// adminClient talks to NameServers and brokers with one connection per address.
type adminClient struct {
	nameServers []string
	clients     map[string]*remoting.Client
	log         *logrus.Entry
	// nsConfig signs and encrypts as the security options say, for every
	// address: NameServers, controllers and brokers take the same
	// tls.server.mode (as Java's tools use one client configuration).
	nsConfig remoting.ClientConfig
}

func newAdminClient(nameServers []string, nsConfig remoting.ClientConfig) *adminClient {
	logger := logrus.New()
	logger.SetLevel(logrus.ErrorLevel)
	nsConfig.Logger = logrus.NewEntry(logger)
	return &adminClient{nameServers: nameServers, clients: map[string]*remoting.Client{}, log: nsConfig.Logger, nsConfig: nsConfig}
}

func (c *adminClient) close() {
	for _, client := range c.clients {
		client.Close()
	}
}

// invoke sends one request to addr; a non-success answer is a *serverError.
func (c *adminClient) invoke(addr string, code int32, ext map[string]string, body []byte) (*remoting.Command, error) {
	return c.invokeWithin(addr, code, ext, body, requestTimeout)
}

// invokeWithin is invoke waiting up to timeout for the answer.
func (c *adminClient) invokeWithin(addr string, code int32, ext map[string]string, body []byte, timeout time.Duration) (*remoting.Command, error) {
	client, ok := c.clients[addr]
	if !ok {
		client = remoting.NewClient(addr, c.nsConfig)
		c.clients[addr] = client
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	req := remoting.NewRequest(code, ext, body)
	req.Language = remoting.JAVA
	resp, err := client.Invoke(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("%s to %s: %w", remoting.RequestCodeName(code), addr, err)
	}
	if resp.Code != remoting.SUCCESS {
		return resp, &serverError{addr: addr, code: resp.Code, remark: resp.Remark}
	}
	return resp, nil
}

// invokeNameServer sends to one NameServer, starting at a random one and
// moving on only when a NameServer cannot be reached (Java's client picks one
// and sticks to it while connected).
func (c *adminClient) invokeNameServer(code int32, ext map[string]string, body []byte) (*remoting.Command, error) {
	if len(c.nameServers) == 0 {
		return nil, errNoNameServer
	}
	start := rand.IntN(len(c.nameServers))
	var errs []error
	for i := range c.nameServers {
		addr := c.nameServers[(start+i)%len(c.nameServers)]
		resp, err := c.invoke(addr, code, ext, body)
		var refused *serverError
		if err == nil || errors.As(err, &refused) {
			return resp, err
		}
		errs = append(errs, err)
	}
	return nil, errors.Join(errs...)
}

// clusterInfo asks one NameServer for GET_BROKER_CLUSTER_INFO.
func (c *adminClient) clusterInfo() (*route.ClusterInfo, error) {
	resp, err := c.invokeNameServer(remoting.GET_BROKER_CLUSTER_INFO, nil, nil)
	if err != nil {
		return nil, err
	}
	info, err := route.DecodeClusterInfo(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("decode cluster info: %w", err)
	}
	return info, nil
}

// topicRoute asks one NameServer for a topic's route.
func (c *adminClient) topicRoute(topic string) (*route.TopicRouteData, error) {
	resp, err := c.invokeNameServer(remoting.GET_ROUTEINFO_BY_TOPIC, map[string]string{"topic": topic}, nil)
	if err != nil {
		return nil, err
	}
	data, err := route.DecodeTopicRouteData(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("decode route of %s: %w", topic, err)
	}
	return data, nil
}

// mastersOf returns the master addresses of a cluster's broker groups, sorted
// by broker name (Java CommandUtil.fetchMasterAddrByClusterName).
func mastersOf(info *route.ClusterInfo, cluster string) ([]string, bool) {
	names, ok := info.ClusterAddrTable[cluster]
	if !ok {
		return nil, false
	}
	var masters []string
	for _, name := range sortedCopy(names) {
		if addr, ok := info.BrokerAddrTable[name].BrokerAddrs[route.MasterID]; ok && addr != "" {
			masters = append(masters, addr)
		}
	}
	return masters, true
}

// splitAddrList splits a ';' address list (-n, a controller's -a), blanks
// dropped.
func splitAddrList(list string) []string {
	var addrs []string
	for _, addr := range strings.Split(list, ";") {
		if addr = strings.TrimSpace(addr); addr != "" {
			addrs = append(addrs, addr)
		}
	}
	return addrs
}

// askDecoded sends code to the broker at addr and decodes the answer's
// body, an error naming what and addr when it does not decode: the one
// shape of every read a command makes of a broker.
func askDecoded[T any](e *env, addr string, code int32, ext map[string]string, what string, decode func([]byte) (T, error)) (T, error) {
	var zero T
	resp, err := e.client.invoke(addr, code, ext, nil)
	if err != nil {
		return zero, err
	}
	v, err := decode(resp.Body)
	if err != nil {
		return zero, fmt.Errorf("%s from %s: %w", what, addr, err)
	}
	return v, nil
}

// nameServerTopics is the NameServer's whole topic list.
func nameServerTopics(e *env) (*route.TopicList, error) {
	resp, err := e.client.invokeNameServer(remoting.GET_ALL_TOPIC_LIST_FROM_NAMESERVER, nil, nil)
	if err != nil {
		return nil, err
	}
	list, err := route.DecodeTopicList(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("decode topic list: %w", err)
	}
	return list, nil
}

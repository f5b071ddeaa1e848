// Package warmstart is the client side of the warm start from peers: a
// NameServer with peerNamesrvAddrs asks each peer, before it serves routes,
// for its route state over request code Code (ours), signed with
// peerAccessKey and peerSecretKey, in pages, and installs it as borrowed
// entries (route/borrowed.go); while borrowed entries remain a Keeper asks
// the peers again every RepollInterval and drops what they no longer have.
// The answering side is namesrv/warm_start.go. Nothing here runs on the
// event loop.
package warmstart

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// Code is GET_PEER_ROUTE_STATE, ours (Java's RequestCode has no 5002, and a
// Java NameServer answers it REQUEST_CODE_NOT_SUPPORTED): one page of a
// NameServer's route state, for a peer's warm start. Header fields: part
// (PartBrokers or PartTopics) and, for topics, shard and after (the
// cursor the previous page gave). It is refused, code 16, unless signed
// with the answering server's own peerAccessKey and peerSecretKey.
const Code int32 = 5002

// The parts of the state, the header field part.
const (
	PartBrokers = "brokers"
	PartTopics  = "topics"
)

// Bounds of the warm start (docs/operations.md, "Warm start from peers").
const (
	// PageBytes is about the largest page of topics a peer answers: at
	// 100,000 topics on 1,000 brokers (10 queue datas each) about 60 pages.
	PageBytes = 1 << 20
	// MaxFrame bounds one answer frame as the asking side reads it: the
	// broker page (about 250 bytes a broker address) and a topic page
	// (PageBytes, exceeded by at most one topic).
	MaxFrame = 16 << 20
	// RepollInterval is how often the peers are asked again while
	// borrowed entries remain.
	RepollInterval = 5 * time.Second
	// RepollTimeout bounds one peer's whole answer on a re-poll.
	RepollTimeout = 10 * time.Second
)

// BrokersAnswer is the body of the brokers part.
type BrokersAnswer struct {
	Brokers   []route.PeerBroker   `json:"brokers"`
	Elections []route.PeerElection `json:"elections"`
}

// TopicsAnswer is the body of a topics page.
type TopicsAnswer struct {
	Page route.PeerTopicPage `json:"page"`
	Next route.TopicCursor   `json:"next"`
	Done bool                `json:"done"`
}

// Sink takes the state as it arrives: the brokers first, then each page of
// topics.
type Sink interface {
	Brokers([]route.PeerBroker, []route.PeerElection)
	Topics(route.PeerTopicPage)
}

// Dialer is how a peer is reached.
type Dialer struct {
	// Sign signs each request (aclsign.Signer of peerAccessKey and
	// peerSecretKey); nil sends them unsigned, which peers refuse.
	Sign func(*remoting.Command)
	TLS  *tls.Config
	Log  *logrus.Entry
}

// Fetch asks addr for its whole state within ctx and gives it to sink as it
// arrives. An error after the brokers arrived leaves what sink took.
func (d Dialer) Fetch(ctx context.Context, addr string, sink Sink) error {
	deadline, ok := ctx.Deadline()
	timeout := time.Until(deadline)
	if !ok || timeout <= 0 {
		timeout = RepollTimeout
	}
	log := d.Log
	if log == nil {
		log = logrus.NewEntry(logrus.StandardLogger())
	}
	client := remoting.NewClient(addr, remoting.ClientConfig{DialTimeout: timeout, RequestTimeout: timeout,
		MaxFrameSize: MaxFrame, MaxPending: 1, TLS: d.TLS, Sign: d.Sign, Logger: log.WithField("peer", addr)})
	defer func() { _ = client.Close() }()
	var brokers BrokersAnswer
	if err := ask(ctx, client, map[string]string{"part": PartBrokers}, &brokers); err != nil {
		return fmt.Errorf("warm start from %s: brokers: %w", addr, err)
	}
	sink.Brokers(brokers.Brokers, brokers.Elections)
	cursor := route.TopicCursor{}
	for pages := 0; ; pages++ {
		var page TopicsAnswer
		ext := map[string]string{"part": PartTopics, "shard": strconv.Itoa(cursor.Shard), "after": cursor.After}
		if err := ask(ctx, client, ext, &page); err != nil {
			return fmt.Errorf("warm start from %s: topics page %d: %w", addr, pages, err)
		}
		sink.Topics(page.Page)
		if page.Done {
			return nil
		}
		if page.Next == cursor {
			return fmt.Errorf("warm start from %s: topics page %d: the cursor did not move", addr, pages)
		}
		cursor = page.Next
	}
}

// ask sends one request and decodes its answer's body into into.
func ask(ctx context.Context, c *remoting.Client, ext map[string]string, into any) error {
	resp, err := c.Invoke(ctx, remoting.NewRequest(Code, ext, nil))
	if err != nil {
		return err
	}
	if resp.Code != remoting.SUCCESS {
		return fmt.Errorf("refused with code %d: %s", resp.Code, resp.Remark)
	}
	if err := json.Unmarshal(resp.Body, into); err != nil {
		return fmt.Errorf("decode the answer: %w", err)
	}
	return nil
}

package namesrv

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// The layout of route's BenchmarkScale and nsbench scale: 100 clusters of
// 10 brokers, 1,000 topics per cluster on all 10, 8 queues.
const (
	warmScaleClusters = 100
	warmScaleBrokers  = 10
	warmScaleTopics   = 1000
)

// benchServer starts a NameServer for a benchmark; stop it with Shutdown.
func benchServer(b *testing.B, configure func(cfg *config.Config)) *NameServer {
	b.Helper()
	dir := b.TempDir()
	cfg := config.Default()
	cfg.BindAddress, cfg.ListenPort, cfg.HTTPListenPort = "127.0.0.1", 0, 0
	cfg.KvConfigPath, cfg.ConfigStorePath = filepath.Join(dir, "kvConfig.json"), filepath.Join(dir, "namesrv.properties")
	cfg.PeerAccessKey, cfg.PeerSecretKey = warmKey, warmSecret
	if configure != nil {
		configure(cfg)
	}
	logger := logrus.New()
	logger.SetOutput(io.Discard)
	log := logrus.NewEntry(logger)
	ns, err := New(config.NewSettings(cfg, log), log)
	if err != nil {
		b.Fatal(err)
	}
	return ns
}

// BenchmarkScaleWarmStart is the warm start at 100,000 topics on 1,000
// brokers: a peer holds the layout; each iteration starts a NameServer with
// that peer and times New, from its call to the listener accepting
// connections with every route in (the state is installed before it
// listens, so this is the time from start to the first correct answer).
// Every topic's route is then compared with the peer's, 1,000 of them over
// the wire, the rest in process.
func BenchmarkScaleWarmStart(b *testing.B) {
	peer := benchServer(b, nil)
	defer func() { _ = peer.Shutdown(context.Background()) }()
	var topics []string
	for c := range warmScaleClusters {
		table := make(map[string]route.TopicConfig, warmScaleTopics)
		for t := range warmScaleTopics {
			name := fmt.Sprintf("ScaleTopicOfCluster%dXXXXXXXXXXX%d", c, t)
			table[name] = route.TopicConfig{TopicName: name, ReadQueueNums: 8, WriteQueueNums: 8, Perm: 6, TopicFilterType: route.TopicFilterSingleTag}
			topics = append(topics, name)
		}
		for k := range warmScaleBrokers {
			i := c*warmScaleBrokers + k
			req := &route.RegisterBrokerRequest{ClusterName: fmt.Sprintf("ScaleCluster-%d", c), BrokerName: fmt.Sprintf("scale-c%d-broker-%d", c, k),
				BrokerAddr: fmt.Sprintf("10.0.%d.%d:10911", i/256, i%256), Conn: route.ConnID(1_000_000 + i), FilterServersGiven: true,
				Body: &route.RegisterBrokerBody{TopicConfigSerializeWrapper: route.TopicConfigSerializeWrapper{
					DataVersion: route.DataVersion{Counter: 1}, TopicConfigTable: table}, FilterServerList: []string{}}}
			if _, _, err := peer.routes.RegisterBroker(req, peer.clock.Now()); err != nil {
				b.Fatal(err)
			}
		}
	}
	var slowest time.Duration
	b.ResetTimer()
	for range b.N {
		began := time.Now()
		s := benchServer(b, func(cfg *config.Config) { cfg.PeerNamesrvAddrs = peer.Addr().String() })
		took := time.Since(began)
		b.StopTimer()
		slowest = max(slowest, took)
		b.ReportMetric(float64(slowest.Milliseconds()), "slowest-ms-to-serve")
		checkWarmRoutes(b, peer, s, topics)
		_ = s.Shutdown(context.Background())
		b.StartTimer()
	}
}

// checkWarmRoutes fails b unless s routes every topic as peer does.
func checkWarmRoutes(b *testing.B, peer, s *NameServer, topics []string) {
	b.Helper()
	client := nstest.NewClient(b, s.Addr().String())
	for i, topic := range topics {
		want, _ := peer.routes.PickupTopicRouteData(topic)
		var got *route.TopicRouteData
		if i%100 == 0 {
			resp := nstest.RouteQuery(b, client, topic, route.VersionV4_9_4)
			if resp.Code != remoting.SUCCESS {
				b.Fatalf("route of %s: code %d", topic, resp.Code)
			}
			got = nstest.DecodeRoute(b, resp)
		} else {
			got, _ = s.routes.PickupTopicRouteData(topic)
		}
		if got == nil || !reflect.DeepEqual(got.QueueDatas, want.QueueDatas) || !reflect.DeepEqual(got.BrokerDatas, want.BrokerDatas) {
			b.Fatalf("route of %s: %+v, peer's %+v", topic, got, want)
		}
	}
	_ = client.Close()
}

package node

import (
	"context"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/controller"
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// Limits of NOTIFY_BROKER_ROLE_CHANGED (Java: 3 threads, 3000 ms oneway).
const (
	notifyWorkers = 3
	notifyQueue   = 1024
	notifyTimeout = 3 * time.Second
	// notifyMaxClients bounds the broker connections kept for notices; past
	// it they are all closed and dialled again as needed.
	notifyMaxClients = 4096
)

type notice struct {
	addr string
	req  *remoting.Command
}

// notifier sends role-change notices to brokers' own listen ports.
type notifier struct {
	n       *Node
	jobs    chan notice
	mu      sync.Mutex
	clients map[string]*remoting.Client
	wg      sync.WaitGroup
	done    chan struct{}
}

func newNotifier(n *Node) *notifier {
	return &notifier{n: n, jobs: make(chan notice, notifyQueue), clients: map[string]*remoting.Client{}, done: make(chan struct{})}
}

func (t *notifier) start() {
	for range notifyWorkers {
		t.wg.Add(1)
		go func() {
			defer t.wg.Done()
			for {
				select {
				case <-t.done:
					return
				case job := <-t.jobs:
					t.send(job)
				}
			}
		}()
	}
}

// roleChanged queues a notice of a new master to every live member.
func (t *notifier) roleChanged(brokerName string, h *wire.ElectMasterResponse) {
	var ri controller.ReplicaInfo
	var ss controller.SyncStateInfo
	t.n.fsm.Read(func(s *controller.State) {
		ri, _ = s.ReplicaInfo(brokerName)
		ss, _ = s.SyncStateInfo(brokerName)
	})
	header := wire.NotifyBrokerRoleChangedRequest{MasterBrokerID: *h.MasterBrokerID, MasterEpoch: *h.MasterEpoch,
		SyncStateSetEpoch: *h.SyncStateSetEpoch}
	if h.MasterAddress != nil {
		header.MasterAddress = *h.MasterAddress
	}
	body := (&wire.SyncStateSet{SyncStateSet: []int64{*h.MasterBrokerID}, SyncStateSetEpoch: *h.SyncStateSetEpoch}).Encode()
	if ss.MasterEpoch == *h.MasterEpoch {
		body = (&wire.SyncStateSet{SyncStateSet: ss.SyncStateSet, SyncStateSetEpoch: ss.SyncStateSetEpoch}).Encode()
	}
	for _, id := range ri.IDs() {
		if !t.n.live.Alive(ri.ClusterName, brokerName, id) {
			continue
		}
		addr := ri.Brokers[id].Address
		req := remoting.NewRequest(wire.CodeNotifyBrokerRoleChanged, remoting.EncodeHeader(&header), body)
		select {
		case t.jobs <- notice{addr: addr, req: req}:
		default:
			t.n.log.WithField("brokerAddr", addr).Warn("notify queue full: role change notice dropped (the broker polls GET_REPLICA_INFO)")
		}
	}
}

func (t *notifier) send(job notice) {
	t.mu.Lock()
	c, ok := t.clients[job.addr]
	if !ok {
		if len(t.clients) >= notifyMaxClients {
			for addr, old := range t.clients {
				old.Close()
				delete(t.clients, addr)
			}
		}
		c = t.n.client(job.addr, notifyTimeout, 0)
		t.clients[job.addr] = c
	}
	t.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), notifyTimeout)
	defer cancel()
	if err := c.InvokeOneway(ctx, job.req); err != nil {
		t.n.log.WithError(err).WithField("brokerAddr", job.addr).Warn("role change notice not sent")
		return
	}
	t.n.metrics.notices.Inc()
	t.n.log.WithFields(logrus.Fields{"brokerAddr": job.addr}).Debug("role change notice sent")
}

func (t *notifier) close() {
	close(t.done)
	t.wg.Wait()
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, c := range t.clients {
		c.Close()
	}
}

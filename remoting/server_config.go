package remoting

import (
	"time"

	"github.com/sirupsen/logrus"
)

// Defaults of ServerConfig, taken from the Java NameServer where it has one.
const (
	// DefaultIdleTimeout is serverChannelMaxIdleTimeSeconds (120 s).
	DefaultIdleTimeout = 120 * time.Second
	// DefaultSlowWorkers is defaultThreadPoolNums (16).
	DefaultSlowWorkers = 16
	// DefaultSlowQueue is defaultThreadPoolQueueCapacity (10000).
	DefaultSlowQueue = 10000
)

// ServerConfig holds the server's settings; zero fields take the defaults
// of DefaultServerConfig.
type ServerConfig struct {
	// Addr is the listen address, host:port; port 0 picks a free port
	// (read it back with Server.Addr).
	Addr string
	// Multicore runs one event loop per CPU instead of one in total.
	Multicore bool
	// NumEventLoops overrides the number of event loops when > 0.
	NumEventLoops int
	// MaxFrameSize bounds a frame, length field included (Java frameMaxLength).
	MaxFrameSize int
	// IdleTimeout closes connections without reads or writes for this long.
	IdleTimeout time.Duration
	// SlowWorkers is the number of goroutines that run Slow() handlers.
	SlowWorkers int
	// SlowQueue bounds the requests waiting for a slow worker; beyond it the
	// server answers SYSTEM_BUSY.
	SlowQueue int
	// Pools are worker pools besides the default one, by name, for the
	// handlers registered with SlowIn.
	Pools map[string]PoolSize
	// SocketSendBuffer and SocketRecvBuffer set each connection's SO_SNDBUF
	// and SO_RCVBUF when > 0 (Java serverSocketSndBufSize and
	// serverSocketRcvBufSize); 0 keeps the kernel's autotuning.
	SocketSendBuffer, SocketRecvBuffer int
	// RequestMemoryLimit bounds the bytes of request frames held at once:
	// large frames being read, and requests queued for or running on a slow
	// worker. A request past it is answered SYSTEM_BUSY (see requestMemory).
	RequestMemoryLimit int64
	// RequestMemoryBrokerHeadroom is the part of RequestMemoryLimit only
	// known brokers' connections may take (request_memory_share.go): the
	// others stop at RequestMemoryLimit minus it. 0: none; at most half the
	// limit (more is lowered to half, so a new broker's first registration
	// has room).
	RequestMemoryBrokerHeadroom int64
	// RequestMemoryPerConnection and RequestMemoryPerStranger bound the
	// request bytes one connection holds (its frame being read, its
	// requests queued or running): a known broker's, and any other's.
	// 0: none; a positive one is at least MaxFrameSize, so one frame of
	// any size allowed always fits.
	RequestMemoryPerConnection, RequestMemoryPerStranger int64
	// LargeFrameStallTimeout closes a connection whose frame of
	// largeFrameSize or more got no byte for this long, or, over a window
	// of this long, fewer than LargeFrameMinRate bytes a second (of those
	// it still lacked); see frame_rate.go. 0: only IdleTimeout applies.
	LargeFrameStallTimeout time.Duration
	LargeFrameMinRate      int64
	// OutboundSoftLimit: answers waiting on a connection past which its
	// requests are left unread; OutboundHardLimit: bytes waiting on it
	// (answers unwritten, requests unread) past which it is closed.
	OutboundSoftLimit, OutboundHardLimit int
	// OutboundMemoryLimit bounds the output all connections hold together
	// (worker answers queued plus gnet's output buffers); a worker answer
	// past it is replaced by SYSTEM_BUSY. 0: RequestMemoryLimit /
	// DefaultOutboundMemoryFraction.
	OutboundMemoryLimit int64
	// OutboundStuckAfter: past OutboundMemoryLimit, a paused connection
	// whose peer took none of its output for this long is closed
	// (outbound_limit.go). 0: DefaultOutboundStuckAfter.
	OutboundStuckAfter time.Duration
	// MaxConnections caps the open connections; past it a new one is closed
	// at once and counted (see connGuard).
	MaxConnections int
	// ReservedDescriptors are descriptors the connection cap leaves of the
	// file limit for others (the HTTP side port's connection cap), on top
	// of the server's own headroom (conn_limit.go).
	ReservedDescriptors int
	// Logger receives the server's and gnet's log lines.
	Logger *logrus.Entry
	// TLS, when set with a mode other than TLSDisabled, serves the port
	// with TLS through a Go net.Listener (netlistener.go).
	TLS *TLSOptions
}

// PoolSize is a worker pool's goroutines and queue bound (at least 1 each).
type PoolSize struct{ Workers, Queue int }

// DefaultServerConfig returns the Java NameServer's defaults: port 9876,
// 16 MiB frames, 120 s idle timeout, 16 slow workers with a queue of 10000.
func DefaultServerConfig() ServerConfig {
	return ServerConfig{
		Addr:         "0.0.0.0:9876",
		Multicore:    true,
		MaxFrameSize: DefaultMaxFrameSize,
		IdleTimeout:  DefaultIdleTimeout,
		SlowWorkers:  DefaultSlowWorkers,
		SlowQueue:    DefaultSlowQueue,
		Logger:       logrus.NewEntry(logrus.StandardLogger()),

		RequestMemoryLimit: DefaultRequestMemoryLimit,
		MaxConnections:     DefaultMaxConnections,
		OutboundSoftLimit:  DefaultOutboundSoftLimit,
		OutboundHardLimit:  DefaultOutboundHardLimit,
	}
}

// withDefaults fills the zero fields of cfg from DefaultServerConfig.
func (cfg ServerConfig) withDefaults() ServerConfig {
	defaults := DefaultServerConfig()
	if cfg.Addr == "" {
		cfg.Addr = defaults.Addr
	}
	if cfg.Logger == nil {
		cfg.Logger = defaults.Logger
	}
	positiveOr(&cfg.MaxFrameSize, defaults.MaxFrameSize)
	positiveOr(&cfg.IdleTimeout, defaults.IdleTimeout)
	positiveOr(&cfg.SlowWorkers, defaults.SlowWorkers)
	positiveOr(&cfg.SlowQueue, defaults.SlowQueue)
	positiveOr(&cfg.RequestMemoryLimit, defaults.RequestMemoryLimit)
	positiveOr(&cfg.MaxConnections, defaults.MaxConnections)
	positiveOr(&cfg.OutboundSoftLimit, defaults.OutboundSoftLimit)
	positiveOr(&cfg.OutboundHardLimit, defaults.OutboundHardLimit)
	positiveOr(&cfg.OutboundMemoryLimit, cfg.RequestMemoryLimit/DefaultOutboundMemoryFraction)
	positiveOr(&cfg.OutboundStuckAfter, DefaultOutboundStuckAfter)
	cfg.RequestMemoryBrokerHeadroom = min(max(cfg.RequestMemoryBrokerHeadroom, 0), cfg.RequestMemoryLimit/2)
	for _, share := range []*int64{&cfg.RequestMemoryPerConnection, &cfg.RequestMemoryPerStranger} {
		if *share > 0 {
			*share = max(*share, int64(cfg.MaxFrameSize))
		}
	}
	return cfg
}

// positiveOr sets *field to def unless it is positive.
func positiveOr[T int | int64 | time.Duration](field *T, def T) {
	if *field <= 0 {
		*field = def
	}
}

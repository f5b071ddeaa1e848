package agent

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"sync"

	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// Result is what one NameServer answered to a registration.
type Result struct {
	NameServer   string
	MasterAddr   string            // the group's master, for a slave whose master is alive
	HAServerAddr string            // that master's HA address
	OrderTopics  map[string]string // ORDER_TOPIC_CONFIG table; nil when absent
}

// outcome is one NameServer's part of a parallel round.
type outcome struct {
	addr string
	resp *remoting.Command
	err  error
}

// fanOut sends one request per NameServer in parallel and returns the answers
// in completion order. Every goroutine ends before fanOut returns: each call is
// bounded by ctx.
func (a *Agent) fanOut(ctx context.Context, addrs []string, build func() *remoting.Command) []outcome {
	results := make(chan outcome, len(addrs))
	var wg sync.WaitGroup
	for _, addr := range addrs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := a.pool.invoke(ctx, addr, build())
			if err == nil && resp.Code != remoting.SUCCESS {
				err = fmt.Errorf("%w: %s answered code %d (%s)", ErrAgentRefused, addr, resp.Code, resp.Remark)
			}
			results <- outcome{addr: addr, resp: resp, err: err}
		}()
	}
	wg.Wait()
	close(results)
	collected := make([]outcome, 0, len(addrs))
	for o := range results {
		collected = append(collected, o)
	}
	return collected
}

// registrationTable applies brokerPermission to a topic table as Java does
// before sending it: when the broker is not read+write, each perm is ANDed with it.
func (a *Agent) registrationTable(table map[string]route.TopicConfig) map[string]route.TopicConfig {
	perm := a.brokerPermission()
	if perm&route.PermRead != 0 && perm&route.PermWrite != 0 {
		return table
	}
	masked := make(map[string]route.TopicConfig, len(table))
	for name, tc := range table {
		tc.Perm &= perm
		masked[name] = tc
	}
	return masked
}

// chunks splits a table for split registration: full chunks of size, then
// the rest (always sent, even empty, as Java sends its remainder).
func chunks(table map[string]route.TopicConfig, size int) []map[string]route.TopicConfig {
	names := slices.Collect(maps.Keys(table))
	sort.Strings(names)
	var parts []map[string]route.TopicConfig
	current := make(map[string]route.TopicConfig, min(size, len(names)))
	for _, name := range names {
		current[name] = table[name]
		if len(current) >= size {
			parts = append(parts, current)
			current = make(map[string]route.TopicConfig, size)
		}
	}
	return append(parts, current)
}

// RegisterAll runs one full registration round with every NameServer and
// returns the successful answers in completion order. Without force (and
// without split registration) it first asks every NameServer with
// QUERY_DATA_VERSION and skips the round when none needs it.
func (a *Agent) RegisterAll(ctx context.Context, force bool) ([]Result, error) {
	addrs := a.pool.list()
	if len(addrs) == 0 {
		return nil, ErrAgentNoNameServer
	}
	ctx, cancel := context.WithTimeout(ctx, a.cfg.RegisterTimeout)
	defer cancel()
	wrapper := a.topics.Wrapper()
	wrapper.DataVersion = a.withStateVersion(wrapper.DataVersion)
	table := a.registrationTable(wrapper.TopicConfigTable)
	split := a.cfg.EnableSplitRegistration && a.cfg.SplitRegistrationSize > 0 && len(table) >= a.cfg.SplitRegistrationSize
	if !force && !a.cfg.EnableSplitRegistration && !a.needRegister(ctx, addrs, wrapper.DataVersion) {
		a.log.Debug("no name server reports a change; registration skipped")
		return nil, nil
	}
	parts := []map[string]route.TopicConfig{table}
	if split {
		parts = chunks(table, a.cfg.SplitRegistrationSize)
	}
	var results []Result
	var errs []error
	for _, part := range parts {
		r, err := a.register(ctx, addrs, route.TopicConfigSerializeWrapper{
			DataVersion:              wrapper.DataVersion,
			TopicConfigTable:         part,
			TopicQueueMappingInfoMap: wrapper.TopicQueueMappingInfoMap,
		})
		results = append(results, r...)
		if err != nil {
			errs = append(errs, err)
		}
	}
	return results, errors.Join(errs...)
}

// RegisterTopics sends an incremental registration holding only the given
// topics and the current DataVersion, as a Java broker does after a topic is
// created or updated, so routes change without waiting for the next period.
func (a *Agent) RegisterTopics(ctx context.Context, configs []route.TopicConfig) ([]Result, error) {
	addrs := a.pool.list()
	if len(addrs) == 0 {
		return nil, ErrAgentNoNameServer
	}
	ctx, cancel := context.WithTimeout(ctx, a.cfg.RegisterTimeout)
	defer cancel()
	table := make(map[string]route.TopicConfig, len(configs))
	for _, tc := range configs {
		table[tc.TopicName] = tc
	}
	return a.register(ctx, addrs, route.TopicConfigSerializeWrapper{
		DataVersion:      a.withStateVersion(a.topics.DataVersion()),
		TopicConfigTable: a.registrationTable(table),
	})
}

// register sends one REGISTER_BROKER per NameServer in parallel.
func (a *Agent) register(ctx context.Context, addrs []string, wrapper route.TopicConfigSerializeWrapper) ([]Result, error) {
	body, compressed, err := a.encodeBody(wrapper)
	if err != nil {
		return nil, err
	}
	cfg := a.cfg
	cfg.Identity = a.identity()
	outcomes := a.fanOut(ctx, addrs, func() *remoting.Command {
		return registerBrokerRequest(&cfg, body, compressed)
	})
	var results []Result
	var errs []error
	for _, o := range outcomes {
		if o.err != nil {
			errs = append(errs, fmt.Errorf("register %s: %w", a.cfg.BrokerAddr, o.err))
			continue
		}
		result, err := decodeResult(o.addr, o.resp)
		if err != nil {
			errs = append(errs, fmt.Errorf("register %s with %s: %w", a.cfg.BrokerAddr, o.addr, err))
		}
		results = append(results, result)
	}
	for _, err := range errs {
		a.log.WithError(err).Warn("registration with a name server failed")
	}
	if len(results) > 0 && a.onResult != nil {
		a.onResult(results[0])
	}
	return results, errors.Join(errs...)
}

// encodeBody writes the RegisterBrokerBody, compressed when configured.
func (a *Agent) encodeBody(wrapper route.TopicConfigSerializeWrapper) ([]byte, bool, error) {
	body := route.RegisterBrokerBody{TopicConfigSerializeWrapper: wrapper, FilterServerList: []string{}}
	if !a.cfg.CompressedRegister {
		return route.EncodeRegisterBrokerBody(nil, &body, route.DataVersion{}), false, nil
	}
	compressed, err := route.EncodeCompressedRegisterBrokerBody(&body)
	if err != nil {
		return nil, false, fmt.Errorf("compress registration body: %w", err)
	}
	return compressed, true, nil
}

// decodeResult reads the master address, HA address and order table of an answer.
func decodeResult(addr string, resp *remoting.Command) (Result, error) {
	result := Result{NameServer: addr}
	result.MasterAddr, _ = resp.Ext("masterAddr")
	result.HAServerAddr, _ = resp.Ext("haServerAddr")
	if len(resp.Body) == 0 {
		return result, nil
	}
	table, err := route.DecodeKVTable(resp.Body)
	if err != nil || table == nil {
		return result, fmt.Errorf("decode order topic config: %w", err)
	}
	result.OrderTopics = table.Table
	return result, nil
}

// needRegister asks every NameServer whether it holds this broker's current
// version (protocol.md 7.5): a failure, an answer "changed" or a different
// version all mean a registration is needed.
func (a *Agent) needRegister(ctx context.Context, addrs []string, version route.DataVersion) bool {
	outcomes := a.fanOut(ctx, addrs, func() *remoting.Command {
		return queryDataVersionRequest(a.identity(), version)
	})
	for _, o := range outcomes {
		if o.err != nil {
			return true
		}
		if changed, _ := o.resp.Ext("changed"); changed == "true" {
			return true
		}
		stored, err := route.DecodeDataVersion(o.resp.Body)
		if len(o.resp.Body) == 0 || err != nil || stored != version {
			return true
		}
	}
	return false
}

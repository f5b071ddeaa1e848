package admin

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/testlog"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// mapConfig is a ConfigSource over a map: the broker's own source is tested
// in package broker; these tests are about the wire answers.
type mapConfig struct {
	props   map[string]string
	version route.DataVersion
	refuse  error
}

func (m *mapConfig) Properties() (map[string]string, route.DataVersion) { return m.props, m.version }

func (m *mapConfig) Update(props map[string]string) error {
	if m.refuse != nil {
		return m.refuse
	}
	for k, v := range props {
		m.props[k] = v
	}
	m.version.Counter++
	return nil
}

func TestGetBrokerConfigAnswer(t *testing.T) {
	h := &configHandlers{src: &mapConfig{props: map[string]string{"b": "2", "a": "1"}, version: route.DataVersion{Counter: 3, Timestamp: 5}}}
	resp := h.get(remoting.NewRequest(remoting.GET_BROKER_CONFIG, nil, nil))
	if resp.Code != remoting.SUCCESS || string(resp.Body) != "a=1\nb=2\n" || resp.ExtFields["version"] != `{"counter":3,"stateVersion":0,"timestamp":5}` {
		t.Fatalf("%d %q %v", resp.Code, resp.Body, resp.ExtFields)
	}
}

func TestUpdateBrokerConfigAnswers(t *testing.T) {
	src := &mapConfig{props: map[string]string{}}
	h := &configHandlers{src: src, log: testlog.Discard()}
	update := func(body string) *remoting.Command {
		return h.update("127.0.0.1:1", remoting.NewRequest(remoting.UPDATE_BROKER_CONFIG, nil, []byte(body)))
	}
	if resp := update("brokerPermission=4\n"); resp.Code != remoting.SUCCESS || src.props["brokerPermission"] != "4" {
		t.Fatalf("applied: %d %q %v", resp.Code, resp.Remark, src.props)
	}
	if resp := update(""); resp.Code != remoting.SUCCESS || src.version.Counter != 1 {
		t.Fatalf("empty body: %d, version %+v (nothing to apply)", resp.Code, src.version)
	}
	if resp := update(`bad=\u12`); resp.Code != remoting.SYSTEM_ERROR || resp.Remark != "string2Properties error" {
		t.Fatalf("malformed: %d %q", resp.Code, resp.Remark)
	}
	if resp := update(strings.Repeat("x", MaxUpdateConfigBody+1)); resp.Code != remoting.SYSTEM_ERROR || !strings.Contains(resp.Remark, "limit") {
		t.Fatalf("too large: %d %q", resp.Code, resp.Remark)
	}
	src.refuse = fmt.Errorf("%w: rocketmqHome", ErrBlackListed)
	if resp := update("rocketmqHome=/x\n"); resp.Code != remoting.NO_PERMISSION || resp.Remark != "Can not update config in black list." {
		t.Fatalf("black list: %d %q", resp.Code, resp.Remark)
	}
	src.refuse = errors.New("listenPort applies only at start")
	if resp := update("listenPort=1\n"); resp.Code != remoting.SYSTEM_ERROR || resp.Remark != "listenPort applies only at start" {
		t.Fatalf("refused: %d %q", resp.Code, resp.Remark)
	}
}

package remoting

import (
	"fmt"
	"strings"
	"testing"
)

// javaRoute and goRoute are route query headers as the Java 5.3.3 client
// and rocketmq-client-go v2 write them.
func javaRoute(topic string, opaque int64) []byte {
	return javaHeader(GET_ROUTEINFO_BY_TOPIC, `"topic":"`+topic+`"`, opaque, 479)
}

func goRoute(topic string, opaque int64) []byte {
	return fmt.Appendf(nil, `{"code":105,"language":"GO","version":317,"opaque":%d,"flag":0,"remark":"","extFields":{"topic":"%s"}}`, opaque, topic)
}

func TestRouteLayoutsAreLearnedOnceAndMatchEveryTopicAndOpaque(t *testing.T) {
	m := newFastHeaderMemo()
	for _, layout := range []func(string, int64) []byte{javaRoute, goRoute} {
		first := layout("TopicA", 1)
		h, ok := m.scan(first)
		sameHeader(t, first, h, ok)
		for _, next := range [][]byte{layout("TopicB-longer_name%x", 2), layout("T", -77), layout("TopicA", 1<<31-1)} {
			direct := false
			for i := range m.routes {
				var h fastHeader
				if m.routes[i].match(next, &h) {
					direct = true
				}
			}
			if !direct {
				t.Fatalf("%s: no layout learned from %s matches it", next, first)
			}
			h, ok := m.scan(next)
			sameHeader(t, next, h, ok)
			if q, _ := h.routeQuery(); !strings.Contains(string(next), `"`+q.Topic+`"`) {
				t.Fatalf("%s: topic %q", next, q.Topic)
			}
		}
	}
	if m.nextRoute != 2 {
		t.Fatalf("%d layouts learned, want 2 (Java's and the Go client's)", m.nextRoute)
	}
}

func TestRouteLayoutLeavesToTheScanWhatItCannotVouchFor(t *testing.T) {
	m := newFastHeaderMemo()
	if _, ok := m.scan(javaRoute("TopicA", 1)); !ok {
		t.Fatal("not taken")
	}
	for name, header := range map[string][]byte{
		"escaped topic":        javaRoute(`a\"b`, 2),
		"empty topic":          javaRoute("", 2),
		"topic past the limit": javaRoute(strings.Repeat("t", MaxExtValueLength+1), 2),
		"control character":    javaRoute("a\tb", 2),
		"opaque of 11 digits":  javaRoute("TopicA", 12345678901),
		"quoted opaque":        []byte(strings.Replace(string(javaRoute("TopicA", 5)), `"opaque":5`, `"opaque":"5"`, 1)),
		"another version":      javaHeader(GET_ROUTEINFO_BY_TOPIC, `"topic":"TopicA"`, 3, 317),
		"one more ext field":   javaHeader(GET_ROUTEINFO_BY_TOPIC, `"lo":"x","topic":"TopicA"`, 3, 479),
		"trailing bytes":       append(javaRoute("TopicA", 3), ' '),
		"truncated":            javaRoute("TopicA", 3)[:40],
	} {
		var h fastHeader
		if m.routes[0].match(header, &h) {
			t.Errorf("%s: matched the learned layout", name)
		}
		h, ok := m.scan(header) // whatever the memo does, the answer is the scan's
		sameHeader(t, header, h, ok)
	}
}

// The route layouts give the scan's answer: a header learned, the same
// header with another opaque and topic, then any other header.
func FuzzRouteLayoutMemoAgreesWithTheScan(f *testing.F) {
	f.Add(javaRoute("TopicA", 1), int32(2), "TopicB", goRoute("TopicC", 3))
	f.Add(goRoute("TopicA", -1), int32(7), `x"y`, javaRoute("TopicA", 9))
	f.Add(javaHeader(GET_ROUTEINFO_BY_TOPIC, `"acceptStandardJsonOnly":"true","topic":"T"`, 4, 479), int32(0), "", []byte(`{"code":105,"opaque":1,"extFields":{"topic":"T"}}`))
	signed := javaHeader(GET_ROUTEINFO_BY_TOPIC, `"AccessKey":"userKey01","Signature":"c2lnbmVk","topic":"TopicA"`, 5, 479)
	f.Add(signed, int32(6), "TopicB", signed)
	f.Fuzz(func(t *testing.T, first []byte, opaque int32, topic string, second []byte) {
		m := newFastHeaderMemo()
		h, ok := m.scan(first)
		sameHeader(t, first, h, ok)
		if q, isRoute := h.routeQuery(); ok && isRoute && h.opaqueEnd > h.opaqueStart {
			// first again with another opaque and topic, as its client would send it
			again := strings.Replace(string(first), `"`+q.Topic+`"`, `"`+topic+`"`, 1)
			again = strings.Replace(again, fmt.Sprintf(`"opaque":%d`, h.opaque), fmt.Sprintf(`"opaque":%d`, opaque), 1)
			h, ok = m.scan([]byte(again))
			sameHeader(t, []byte(again), h, ok)
		}
		h, ok = m.scan(second)
		sameHeader(t, second, h, ok)
	})
}

// BenchmarkRouteLayoutMemo is a route query taken from its layout (against
// BenchmarkScanFastHeader/route and route-go, the same headers scanned).
func BenchmarkRouteLayoutMemo(b *testing.B) {
	for name, layout := range map[string]func(string, int64) []byte{"java": javaRoute, "go": goRoute} {
		b.Run(name, func(b *testing.B) {
			benchmarkMemo(b, [2][]byte{layout("TopicTest-0001", 123456), layout("TopicTest-0002", 123457)})
		})
	}
}

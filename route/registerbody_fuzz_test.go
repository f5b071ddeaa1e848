package route

import (
	"reflect"
	"testing"
	"unicode/utf8"
)

// normalizeRegisterBody maps the values that a JSON round trip legitimately
// changes (nil versus empty collections, a null scope turning into the Java
// default) to one form, so the fuzz targets can compare bodies.
func normalizeRegisterBody(b *RegisterBrokerBody) {
	if b.FilterServerList == nil {
		b.FilterServerList = []string{}
	}
	w := &b.TopicConfigSerializeWrapper
	if w.TopicQueueMappingInfoMap == nil {
		w.TopicQueueMappingInfoMap = map[string]TopicQueueMappingInfo{}
	}
	for name, info := range w.TopicQueueMappingInfoMap {
		if info.Scope == "" {
			info.Scope = DefaultMappingScope
		}
		if info.CurrIDMap == nil {
			info.CurrIDMap = map[int32]int32{}
		}
		w.TopicQueueMappingInfoMap[name] = info
	}
}

func FuzzDecodeRegisterBrokerBody(f *testing.F) {
	for _, fixture := range []string{"001", "003", "088"} {
		f.Add(requestBody(f, fixture))
	}
	f.Add([]byte(`{"topicConfigSerializeWrapper":{"topicQueueMappingInfoMap":{"T":{"currIdMap":{0:1}}}}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		body, err := DecodeRegisterBrokerBody(raw)
		version, versionErr := DecodeRegisterBrokerDataVersion(raw)
		fpVersion, _, fpErr := RegisterBrokerTableFingerprint(raw)
		if (fpErr == nil) != (versionErr == nil) || (fpErr == nil && fpVersion != version) {
			t.Fatalf("fingerprint scan (%+v, %v) disagrees with the version-only decode (%+v, %v)",
				fpVersion, fpErr, version, versionErr)
		}
		if err != nil {
			return
		}
		if versionErr != nil {
			t.Fatalf("full decode succeeded but the version-only decode failed: %v", versionErr)
		}
		_ = version // duplicate keys may make the two differ (first versus last wins)
		encoded := EncodeRegisterBrokerBody(nil, body, DataVersion{})
		again, err := DecodeRegisterBrokerBody(encoded)
		if err != nil {
			t.Fatalf("our own encoding does not decode: %v\n%s", err, encoded)
		}
		if !utf8.Valid(raw) {
			return // invalid bytes become U+FFFD: names may merge
		}
		normalizeRegisterBody(body)
		normalizeRegisterBody(again)
		if !reflect.DeepEqual(body, again) {
			t.Fatalf("round trip changed the body:\n%+v\n%+v", body, again)
		}
	})
}

func FuzzDecodeCompressedRegisterBrokerBody(f *testing.F) {
	f.Add(requestBody(f, "007"), int32(479))
	f.Add(requestBody(f, "007"), int32(317))
	f.Fuzz(func(t *testing.T, raw []byte, version int32) {
		body, err := DecodeCompressedRegisterBrokerBody(raw, version)
		if err != nil {
			return
		}
		encoded, err := EncodeCompressedRegisterBrokerBody(body)
		if err != nil {
			t.Fatal(err)
		}
		again, err := DecodeCompressedRegisterBrokerBody(encoded, version)
		if err != nil {
			t.Fatalf("our own encoding does not decode: %v", err)
		}
		w, w2 := body.TopicConfigSerializeWrapper, again.TopicConfigSerializeWrapper
		if w.DataVersion != w2.DataVersion || len(w.TopicConfigTable) != len(w2.TopicConfigTable) {
			t.Fatalf("round trip changed the body:\n%+v\n%+v", body, again)
		}
	})
}

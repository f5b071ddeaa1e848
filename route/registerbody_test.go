package route

import (
	"bytes"
	"errors"
	"hash/crc32"
	"reflect"
	"testing"
)

func TestEncodeRegisterBrokerBodySpecExample(t *testing.T) {
	body := &RegisterBrokerBody{TopicConfigSerializeWrapper: TopicConfigSerializeWrapper{
		DataVersion:      DataVersion{Counter: 5, Timestamp: 1700000000000},
		TopicConfigTable: map[string]TopicConfig{"TopicA": {TopicName: "TopicA", ReadQueueNums: 4, WriteQueueNums: 4, Perm: 6}},
	}}
	want := `{"filterServerList":[],"topicConfigSerializeWrapper":{"dataVersion":{"counter":5,"stateVersion":0,"timestamp":1700000000000},` +
		`"mappingDataVersion":{"counter":0,"stateVersion":0,"timestamp":1700000000123},"topicConfigTable":{"TopicA":{"attributes":{},` +
		`"order":false,"perm":6,"readQueueNums":4,"topicFilterType":"SINGLE_TAG","topicName":"TopicA","topicSysFlag":0,` +
		`"writeQueueNums":4}},"topicQueueMappingDetailMap":{},"topicQueueMappingInfoMap":{}}}`
	got := EncodeRegisterBrokerBody(nil, body, DataVersion{Timestamp: 1700000000123})
	if string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// A Java broker's body (fixture 001, topics in hash order) decodes, and our
// encoding of it equals the recorded one with the topic table sorted.
func TestRegisterBrokerBodyFixture001(t *testing.T) {
	raw := requestBody(t, "001")
	body, err := DecodeRegisterBrokerBody(raw)
	if err != nil {
		t.Fatal(err)
	}
	w := body.TopicConfigSerializeWrapper
	if len(w.TopicConfigTable) != 6 || w.DataVersion != (DataVersion{Counter: 1, Timestamp: 1700000000000}) {
		t.Fatalf("got %+v", w)
	}
	if tc := w.TopicConfigTable["TopicInherit"]; tc.Perm != 7 || tc.ReadQueueNums != 4 || tc.TopicName != "TopicInherit" {
		t.Fatalf("TopicInherit: %+v", tc)
	}
	if w.TopicConfigTable["TopicUnitBoth"].TopicSysFlag != 3 {
		t.Fatal("topicSysFlag lost")
	}
	got := EncodeRegisterBrokerBody(nil, body, DataVersion{Timestamp: 1700000000000})
	if canonicalJSON(t, got) != canonicalJSON(t, raw) {
		t.Fatalf("got\n%s\nrecorded\n%s", got, raw)
	}
}

// Fixture 003 carries bare integer keys in currIdMap and hostedQueues.
func TestRegisterBrokerBodyFixture003BareKeys(t *testing.T) {
	body, err := DecodeRegisterBrokerBody(requestBody(t, "003"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(body.FilterServerList, []string{"127.0.0.1:30931"}) {
		t.Fatalf("filter servers %v", body.FilterServerList)
	}
	want := map[string]TopicQueueMappingInfo{"TopicStatic": {Topic: "TopicStatic", Scope: "__global__", Bname: "broker-b",
		TotalQueues: 2, Epoch: 1700000001000, CurrIDMap: map[int32]int32{0: 0, 1: 1}}}
	if got := body.TopicConfigSerializeWrapper.TopicQueueMappingInfoMap; !reflect.DeepEqual(got, want) {
		t.Fatalf("mappings %+v", got)
	}
}

func TestDecodeRegisterBrokerBodyMissingParts(t *testing.T) {
	body, err := DecodeRegisterBrokerBody([]byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	w := body.TopicConfigSerializeWrapper
	if w.TopicConfigTable == nil || len(w.TopicConfigTable) != 0 || w.DataVersion != (DataVersion{}) || body.FilterServerList != nil {
		t.Fatalf("got %+v", body)
	}
	if _, err := DecodeRegisterBrokerBody([]byte(`{"topicConfigSerializeWrapper":{"topicConfigTable":{"A":{"perm":"x"}}}}`)); !errors.Is(err, ErrRouteJSONType) {
		t.Fatalf("got %v, want ErrRouteJSONType", err)
	}
}

func TestDecodeRegisterBrokerDataVersion(t *testing.T) {
	for _, fixture := range []string{"001", "003", "088"} {
		raw := requestBody(t, fixture)
		full, err := DecodeRegisterBrokerBody(raw)
		if err != nil {
			t.Fatal(err)
		}
		v, err := DecodeRegisterBrokerDataVersion(raw)
		if err != nil {
			t.Fatal(err)
		}
		if v != full.TopicConfigSerializeWrapper.DataVersion {
			t.Errorf("%s: got %+v, full decode %+v", fixture, v, full.TopicConfigSerializeWrapper.DataVersion)
		}
	}
	// Field order does not matter; the version may come after the table.
	v, err := DecodeRegisterBrokerDataVersion([]byte(`{"x":{0:[]},"topicConfigSerializeWrapper":{"topicConfigTable":{"A":{}},"dataVersion":{"counter":9}}}`))
	if err != nil || v != (DataVersion{Counter: 9}) {
		t.Fatalf("got %+v, %v", v, err)
	}
	if v, err := DecodeRegisterBrokerDataVersion([]byte(`{"filterServerList":[]}`)); err != nil || v != (DataVersion{}) {
		t.Fatalf("no wrapper: got %+v, %v", v, err)
	}
	if _, err := DecodeRegisterBrokerDataVersion([]byte(`{"topicConfigSerializeWrapper":{"dataVersion":{"counter":x}}}`)); err == nil {
		t.Fatal("a bad version was accepted")
	}
}

func TestRegisterBrokerTableFingerprintIgnoresOnlyTheDataVersion(t *testing.T) {
	encode := func(dv DataVersion, filters []string, configs ...TopicConfig) []byte {
		body := bodyOf(dv, configs...)
		body.FilterServerList = filters
		return EncodeRegisterBrokerBody(nil, body, DataVersion{Counter: 7})
	}
	fingerprint := func(raw []byte) uint64 {
		t.Helper()
		_, fp, err := RegisterBrokerTableFingerprint(raw)
		if err != nil {
			t.Fatal(err)
		}
		return fp
	}
	v1, v2 := DataVersion{Counter: 1, Timestamp: 5}, DataVersion{Counter: 12345, Timestamp: 99999}
	base := fingerprint(encode(v1, nil, topicConfig("T", 8, 6)))
	if dv, fp, _ := RegisterBrokerTableFingerprint(encode(v2, nil, topicConfig("T", 8, 6))); fp != base || dv != v2 {
		t.Fatalf("new version of the same table: %+v, %x, want %x", dv, fp, base)
	}
	others := map[string][]byte{
		"another topic":     encode(v1, nil, topicConfig("U", 8, 6)),
		"another perm":      encode(v1, nil, topicConfig("T", 8, 4)),
		"filter servers":    encode(v1, []string{"10.0.0.1:1"}, topicConfig("T", 8, 6)),
		"no dataVersion":    []byte(`{"topicConfigSerializeWrapper":{"topicConfigTable":{}}}`),
		"no wrapper at all": []byte(`{"filterServerList":[]}`),
		"mapping version":   EncodeRegisterBrokerBody(nil, bodyOf(v1, topicConfig("T", 8, 6)), DataVersion{Counter: 8}),
	}
	for name, raw := range others {
		if fp := fingerprint(raw); fp == base {
			t.Errorf("%s: same fingerprint as the base table", name)
		}
	}
	if fingerprint(others["no dataVersion"]) != 0 || fingerprint(others["no wrapper at all"]) != 0 {
		t.Error("a body without dataVersion has a fingerprint")
	}
	if _, _, err := RegisterBrokerTableFingerprint([]byte(`{"topicConfigSerializeWrapper":{"dataVersion":`)); err == nil {
		t.Error("truncated body accepted")
	}
}

func TestSumRegisterBrokerBodyIsOnePassOfBothChecksums(t *testing.T) {
	dv := DataVersion{Counter: 12, Timestamp: 1700000000000}
	raw := EncodeRegisterBrokerBody(nil, bodyOf(dv, topicConfig("T", 8, 6), topicConfig("U", 4, 2)), DataVersion{Counter: 3})
	sums, err := SumRegisterBrokerBody(raw)
	if err != nil {
		t.Fatal(err)
	}
	if want := crc32.ChecksumIEEE(raw); sums.CRC != want {
		t.Fatalf("CRC %08x, want the body's %08x", sums.CRC, want)
	}
	if sums.DataVersion != dv {
		t.Fatalf("data version %+v, want %+v", sums.DataVersion, dv)
	}
	version := EncodeDataVersion(nil, dv)
	at := bytes.Index(raw, version)
	if at < 0 {
		t.Fatal("the encoded version is not in the body")
	}
	without := append(append([]byte{}, raw[:at]...), raw[at+len(version):]...)
	if want := uint64(len(without))<<32 | uint64(crc32.ChecksumIEEE(without)); sums.TableFingerprint != want {
		t.Fatalf("table fingerprint %x, want the CRC of the body without its version %x", sums.TableFingerprint, want)
	}
	for _, bad := range [][]byte{[]byte(`{"topicConfigSerializeWrapper":{"dataVersion":`), []byte(`{"filterServerList":[]}`)} {
		sums, _ := SumRegisterBrokerBody(bad)
		if want := crc32.ChecksumIEEE(bad); sums.CRC != want || sums.TableFingerprint != 0 {
			t.Errorf("%s: CRC %08x (want %08x), fingerprint %x (want 0)", bad, sums.CRC, want, sums.TableFingerprint)
		}
	}
}

func TestSumRegisterBrokerBodyWithinReadsNoFurther(t *testing.T) {
	dv := DataVersion{Counter: 12, Timestamp: 1700000000000}
	raw := EncodeRegisterBrokerBody(nil, bodyOf(dv, topicConfig("T", 8, 6), topicConfig("U", 4, 2)), DataVersion{Counter: 3})
	crc := crc32.ChecksumIEEE(raw)
	whole, err := SumRegisterBrokerBodyWithCRC(raw, crc)
	if err != nil {
		t.Fatal(err)
	}
	versionEnd := bytes.Index(raw, EncodeDataVersion(nil, dv)) + len(EncodeDataVersion(nil, dv))
	if got, err := SumRegisterBrokerBodyWithin(raw, crc, versionEnd); err != nil || got != whole {
		t.Errorf("within the version's end (%d bytes): %+v, %v; want %+v", versionEnd, got, err, whole)
	}
	if _, err := SumRegisterBrokerBodyWithin(raw, crc, versionEnd-1); err == nil {
		t.Error("a version ending past the limit was read")
	}
	// A table written before the version is not scanned past the limit.
	tableFirst := []byte(`{"topicConfigSerializeWrapper":{"topicConfigTable":{"T":{"topicName":"T"}},"dataVersion":{"counter":1,"stateVersion":0,"timestamp":1}}}`)
	if _, err := SumRegisterBrokerBodyWithin(tableFirst, crc32.ChecksumIEEE(tableFirst), 48); err == nil {
		t.Error("a version behind the table was found within 48 bytes")
	}
	if _, err := SumRegisterBrokerBodyWithin(tableFirst, crc32.ChecksumIEEE(tableFirst), len(tableFirst)); err != nil {
		t.Errorf("the whole body: %v", err)
	}
}

package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteExportIsFastjsonPretty(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "configs.json")
	err := writeExport(path, exportedConfigs{BrokerConfigs: map[string]map[string]string{"broker-a": {"brokerName": "broker-a"}},
		ClusterScale: map[string]int{"namesrvSize": 1}})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	want := "{\n\t\"brokerConfigs\":{\n\t\t\"broker-a\":{\n\t\t\t\"brokerName\":\"broker-a\"\n\t\t}\n\t},\n\t\"clusterScale\":{\n\t\t\"namesrvSize\":1\n\t}\n}"
	if string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

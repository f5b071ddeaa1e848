package config

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

func TestSecretsStayOutOfTheConfigAnswer(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "namesrv.properties")
	content := "configStorePath=" + file + "\ntls.server.keyPassword=hunter22\nsecretKey=s3cr3t\nscanAvailableNameSrv=false\n"
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, _, err := FromArgs([]string{"-c", file}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSettings(cfg, testlog.Discard())
	text := string(s.Properties())
	if strings.Contains(text, "hunter22") || strings.Contains(text, "s3cr3t") || !strings.Contains(text, "scanAvailableNameSrv=false") {
		t.Fatalf("GET text:\n%s", text)
	}
	if _, err := s.Update(map[string]string{"orderMessageEnable": "true"}); err != nil {
		t.Fatal(err)
	}
	if written, _ := os.ReadFile(file); !strings.Contains(string(written), "secretKey=s3cr3t") {
		t.Fatalf("the persisted file lost a key:\n%s", written)
	}
	if got := WithoutSecrets(map[string]string{"a": "1", "AdminPassword": "x"}); len(got) != 1 || got["a"] != "1" {
		t.Fatalf("WithoutSecrets = %v", got)
	}
}

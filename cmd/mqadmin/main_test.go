package main

import (
	"bytes"
	"strings"
	"testing"
)

func runCapture(args ...string) (string, string, int) {
	var stdout, stderr bytes.Buffer
	code := run(args, "", &stdout, &stderr)
	return stdout.String(), stderr.String(), code
}

func TestCommandListAndHelp(t *testing.T) {
	out, _, code := runCapture()
	if code != 0 || !strings.Contains(out, "   updateTopic                         Update or create topic.\n") {
		t.Fatalf("exit %d, list:\n%s", code, out)
	}
	out, _, code = runCapture("help", "TOPICROUTE")
	if code != 0 || !strings.HasPrefix(out, "usage: mqadmin topicRoute [-ak <arg>] [-h] [-json] [-l] [-n <arg>] [-sk <arg>] -t <arg> [-tls] [-tlsCert <arg>] [-tlsKey <arg>] [-tlsTrust <arg>]\n") ||
		!strings.Contains(out, " -t,--topic <arg>") {
		t.Fatalf("exit %d, help:\n%s", code, out)
	}
}

func TestErrorsGoToStderrWithNonZeroExit(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"noSuchCommand"}, "The sub command noSuchCommand not exist."},
		{[]string{"topicRoute"}, "Missing required option: t"},
		{[]string{"topicRoute", "-t", "T"}, "TopicRouteSubCommand command failed: no name server address"},
		{[]string{"topicRoute", "-t", "T", "-n", "127.0.0.1:1"}, "127.0.0.1:1"},
	}
	for _, tc := range cases {
		_, stderr, code := runCapture(tc.args...)
		if code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want non-zero and %q", tc.args, code, stderr, tc.want)
		}
	}
}

func TestParseArgs(t *testing.T) {
	opts := append([]option{{short: "t", long: "topic", hasArg: true, required: true}, {short: "l", long: "list"}}, commonOptions...)
	parsed, err := parseArgs([]string{"--topic", " T ", "-l", "-n=a:1;b:2"}, opts)
	if err != nil || parsed.get("t") != "T" || !parsed.has("l") || parsed.get("n") != "a:1;b:2" {
		t.Fatalf("parsed %+v, %v", parsed, err)
	}
	if _, err := parseArgs([]string{"-t"}, opts); err == nil {
		t.Fatal("missing argument accepted")
	}
	if _, err := parseArgs([]string{"-x"}, opts); err == nil {
		t.Fatal("unknown option accepted")
	}
}

func TestServerErrorWording(t *testing.T) {
	err := &serverError{addr: "127.0.0.1:9876", code: 17, remark: "No topic route info in name server for the topic: T"}
	want := "127.0.0.1:9876 answered: CODE: 17  DESC: No topic route info in name server for the topic: T\nFor more information, please visit the url, " + faqURL
	if err.Error() != want {
		t.Fatalf("got  %q\nwant %q", err.Error(), want)
	}
}

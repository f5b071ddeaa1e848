package senders

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

func TestLocalSendersRegisterEveryBrokerOnTheirOwnConnections(t *testing.T) {
	server := newBrokerServer(t)
	job := smallJob(server.addr)
	client, err := Local(context.Background(), job, testlog.Warnings())
	if err != nil {
		t.Fatal(err)
	}
	if registered, _ := server.counts(); registered != 0 {
		t.Fatalf("%d connections registered before Begin", registered)
	}
	if err := client.Begin(); err != nil {
		t.Fatal(err)
	}
	phase, err := client.Result()
	if err != nil {
		t.Fatal(err)
	}
	brokers := smallSpec.Clusters * smallSpec.BrokersPerCluster
	if phase.Op != "register-new-version" || phase.Conns != brokers || phase.Requests == 0 || phase.ErrorCount() != 0 {
		t.Fatalf("phase %+v", phase)
	}
	registered, closed := server.counts()
	if registered != brokers || closed != 0 {
		t.Fatalf("before Close: %d connections registered, %d closed; want %d and 0", registered, closed, brokers)
	}
	if err := client.Close(); err != nil {
		t.Fatal(err)
	}
	// The server learns of the closes asynchronously; wait for them.
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if _, closed = server.counts(); closed == brokers {
			return
		}
	}
	t.Fatalf("%d of %d sender connections closed after Close", closed, brokers)
}

func TestLocalSendersReportAFailedDial(t *testing.T) {
	// A port nobody listens on: take one and give it back.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	_, err = Local(context.Background(), smallJob(addr), testlog.Warnings())
	if !errors.Is(err, ErrChildFailed) {
		t.Fatalf("got %v, want ErrChildFailed", err)
	}
}

func TestCloseBeforeBeginStopsTheSenders(t *testing.T) {
	server := newBrokerServer(t)
	client, err := Local(context.Background(), smallJob(server.addr), testlog.Warnings())
	if err != nil {
		t.Fatal(err)
	}
	if err := client.Close(); err != nil {
		t.Fatalf("close before begin: %v", err)
	}
	if registered, _ := server.counts(); registered != 0 {
		t.Fatalf("%d connections registered without Begin", registered)
	}
}

package main

import (
	"errors"
	"testing"
)

func TestRepeatEveryRunsOnceWithoutIAndStopsAtAnError(t *testing.T) {
	runs := 0
	once := func() error { runs++; return nil }
	if err := repeatEvery(&env{args: parsedArgs{values: map[string]string{}}}, once); err != nil || runs != 1 {
		t.Fatalf("without -i: %d runs, %v", runs, err)
	}
	if err := repeatEvery(&env{args: parsedArgs{values: map[string]string{"i": "x"}}}, once); err == nil || runs != 1 {
		t.Fatalf("-i x: %d runs, %v", runs, err)
	}
	stop := errors.New("stop")
	runs = 0
	err := repeatEvery(&env{args: parsedArgs{values: map[string]string{"i": "1"}}}, func() error {
		if runs++; runs == 2 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || runs != 2 {
		t.Fatalf("-i 1: %d runs, %v", runs, err)
	}
}

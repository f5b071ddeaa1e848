package route

import "runtime"

func numProcs() int { return runtime.GOMAXPROCS(0) }

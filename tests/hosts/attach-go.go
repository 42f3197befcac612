// attach-go.go - attach-truth.c in Go, built statically (CGO_ENABLED=0):
// a program the runtime cannot enter, which pct record samples from
// outside (e2e 152).  Three goroutines, each locked to its OS thread, run
// workA, workB and workC in turns of 5 to 70 ms and log each turn (its
// function, start and end on CLOCK_MONOTONIC, CPU time on
// CLOCK_THREAD_CPUTIME_ID) as "main.workX<TAB>start_ns<TAB>cpu_ns<TAB>end_ns"
// lines.  usage: attach-go SECONDS; exits 3, so that a test sees the
// status kept.
package main

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"unsafe"
)

var sink uint64

func clock(id uintptr) uint64 {
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, id, uintptr(unsafe.Pointer(&ts)), 0)
	return uint64(ts.Sec)*1000000000 + uint64(ts.Nsec)
}

const monotonic, threadCPU = 1, 3

//go:noinline
func workA(units int) {
	x := sink
	for i := 0; i < units*300000; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	sink = x
}

//go:noinline
func workB(units int) {
	x := sink
	for i := 0; i < units*300000; i++ {
		x = (x^(x>>7))*0x9e3779b97f4a7c15 + 3
	}
	sink = x
}

//go:noinline
func workC(units int) {
	x := sink
	for i := 0; i < units*300000; i++ {
		x = x*2862933555777941757 + (x >> 11)
	}
	sink = x
}

type rec struct {
	fn              int
	start, cpu, end uint64
}

func run(index int, seconds float64, log *[]rec, wg *sync.WaitGroup) {
	defer wg.Done()
	runtime.LockOSThread()
	fns := []func(int){workA, workB, workC}
	r := uint32(2463534242) + uint32(index)*7919
	end := clock(monotonic) + uint64(seconds*1e9)
	turn := func(fn, units int) {
		start, c0 := clock(monotonic), clock(threadCPU)
		fns[fn](units)
		cpu := clock(threadCPU) - c0
		*log = append(*log, rec{fn, start, cpu, clock(monotonic)})
	}
	for clock(monotonic) < end {
		r ^= r << 13
		r ^= r >> 17
		r ^= r << 5
		turn(index%3, 30+int(r%41))
		turn((index+1)%3, 10+int(r/41%31))
		turn((index+2)%3, 5+int(r/1271%21))
	}
}

func main() {
	seconds := 3.0
	if len(os.Args) > 1 {
		if s, err := strconv.ParseFloat(os.Args[1], 64); err == nil {
			seconds = s
		}
	}
	names := []string{"main.workA", "main.workB", "main.workC"}
	logs := make([][]rec, 3)
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go run(i, seconds, &logs[i], &wg)
	}
	wg.Wait()
	for _, l := range logs {
		for _, t := range l {
			fmt.Printf("%s\t%d\t%d\t%d\n", names[t.fn], t.start, t.cpu, t.end)
		}
	}
	os.Exit(3)
}

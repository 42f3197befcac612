// cgo - a Go program that calls C: Go's runtime handles every signal, so
// pct's must pass it by.  Burns CPU in C, then in two goroutines at once,
// then prints whether the sums differ.
package main

/*
static unsigned long long burn_c(unsigned long long n) {
	unsigned long long x = 1;
	for (unsigned long long i = 0; i < n; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	return x;
}
*/
import "C"

import (
	"fmt"
	"os"
	"strconv"
)

func burnGo(n uint64) uint64 {
	x := uint64(1)
	for i := uint64(0); i < n; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

func main() {
	n := uint64(300000000)
	if len(os.Args) > 1 {
		if v, err := strconv.ParseUint(os.Args[1], 10, 64); err == nil {
			n = v
		}
	}
	a := uint64(C.burn_c(C.ulonglong(n)))
	// two goroutines at once: Go runs them on threads of its own, which
	// start with every signal blocked
	done := make(chan uint64)
	for i := 0; i < 2; i++ {
		go func() { done <- burnGo(n) }()
	}
	b := <-done ^ <-done ^ burnGo(1)
	fmt.Println("done", a^b != 0)
}

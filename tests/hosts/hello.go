// hello - a module-less main package for `go build` to compile offline.
package main

import "fmt"

func main() {
	fmt.Println("hello from go")
}

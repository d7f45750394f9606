package main

import (
	"fmt"
	f2 "github.com/x/y/internal/fact"
)

// Greeter greets.
type Greeter struct{ n int }

// Speaker speaks.
type Speaker interface {
	Speak() string
}

type ID string

// Greet says hello.
func (g *Greeter) Greet(p Person) string {
	fmt.Println(p)
	g.log()
	return helper(f2.Node{})
}

func helper(n f2.Node) string { return "" }

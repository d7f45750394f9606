package main

import (
	"fmt"

	"example.com/goapp/internal/price"
)

func main() {
	q := price.Quote{Amount: 10}
	fmt.Println(price.Discount(q.Amount, 0.5), q.Net())
}

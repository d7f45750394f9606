package price

import "testing"

func TestDiscount(t *testing.T) {
	if Discount(10, 0.5) != 5 {
		t.Fatal("discount")
	}
}

// Package price computes prices.
package price

// Discount takes a share off an amount.
func Discount(amount, share float64) float64 {
	return amount * (1 - share)
}

// Quote is a price offered.
type Quote struct{ Amount float64 }

// Net is the quote after the discount.
func (q Quote) Net() float64 {
	return Discount(q.Amount, 0.1)
}

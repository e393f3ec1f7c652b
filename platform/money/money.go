// Package money is the one money type of the backend (DESIGN.md §1.4): int64 cents inside the
// backend and the database, dollars as a JSON number with at most two decimals in the API. No
// float ever holds an amount.
package money

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Cents is an amount of US money in cents.
type Cents int64

// maxDollars bounds parsed amounts so that cents never overflow int64 arithmetic on sums.
const maxDollars = 1_000_000_000_000

// ErrInvalid is returned for text that is not an amount of dollars with at most two decimals.
var ErrInvalid = errors.New("money: not an amount of dollars with at most two decimals")

// Dollars returns whole dollars as Cents.
func Dollars(d int64) Cents { return Cents(d * 100) }

// Parse reads "12", "12.5", "12.50", "-3" or "0.07". It rejects exponents, more than two
// decimals and absurd magnitudes.
func Parse(s string) (Cents, error) {
	s = strings.TrimSpace(s)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	whole, frac, hasDot := strings.Cut(s, ".")
	if whole == "" || len(frac) > 2 || (hasDot && frac == "") || !digits(whole) || !digits(frac) {
		return 0, ErrInvalid
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || w > maxDollars {
		return 0, ErrInvalid
	}
	for len(frac) < 2 {
		frac += "0"
	}
	f, _ := strconv.ParseInt(frac, 10, 64)
	c := Cents(w*100 + f)
	if neg {
		c = -c
	}
	return c, nil
}

func digits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// DollarString is the amount as a decimal number of dollars: "12", "12.50", "-0.07".
func (c Cents) DollarString() string {
	sign := ""
	v := int64(c)
	if v < 0 {
		sign, v = "-", -v
	}
	if v%100 == 0 {
		return fmt.Sprintf("%s%d", sign, v/100)
	}
	return fmt.Sprintf("%s%d.%02d", sign, v/100, v%100)
}

// String shows the amount the way the product does: whole dollars, no cents (B §9), e.g. "$1,250".
func (c Cents) String() string {
	sign := ""
	v := int64(c)
	if v < 0 {
		sign, v = "-", -v
	}
	d := strconv.FormatInt(v/100, 10)
	var b strings.Builder
	for i, r := range d {
		if i > 0 && (len(d)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return sign + "$" + b.String()
}

// MarshalJSON writes dollars as a JSON number with at most two decimals.
func (c Cents) MarshalJSON() ([]byte, error) { return []byte(c.DollarString()), nil }

// UnmarshalJSON reads dollars from a JSON number (or a numeric string) with at most two decimals.
func (c *Cents) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "null" {
		return nil
	}
	v, err := Parse(s)
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// CeilTo rounds up to the next multiple of step (for example $10, B §9). A non-positive step
// returns c unchanged.
func (c Cents) CeilTo(step Cents) Cents {
	if step <= 0 {
		return c
	}
	r := c % step
	switch {
	case r == 0:
		return c
	case r > 0:
		return c + step - r
	default: // negative amounts round towards zero, which is up
		return c - r
	}
}

// SplitEven divides c into n parts that differ by at most one cent and sum exactly to c; the
// first parts take the remainder. n < 1 gives nil.
func (c Cents) SplitEven(n int) []Cents {
	if n < 1 {
		return nil
	}
	parts := make([]Cents, n)
	base, rem := c/Cents(n), c%Cents(n)
	for i := range parts {
		parts[i] = base
		if rem > 0 {
			parts[i]++
			rem--
		} else if rem < 0 {
			parts[i]--
			rem++
		}
	}
	return parts
}

// Max returns the larger amount.
func Max(a, b Cents) Cents {
	if a > b {
		return a
	}
	return b
}

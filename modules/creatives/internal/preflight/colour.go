package preflight

import (
	"math"
	"strconv"
	"strings"
)

// RGB is a colour, 0-255 a channel.
type RGB struct{ R, G, B uint8 }

// ParseHex reads "#rrggbb" or "#rgb". ok is false for anything else.
func ParseHex(s string) (RGB, bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "#")
	if len(s) == 3 {
		s = string([]byte{s[0], s[0], s[1], s[1], s[2], s[2]})
	}
	if len(s) != 6 {
		return RGB{}, false
	}
	v, err := strconv.ParseUint(s, 16, 32)
	if err != nil {
		return RGB{}, false
	}
	return RGB{uint8(v >> 16 & 0xff), uint8(v >> 8 & 0xff), uint8(v & 0xff)}, true // #nosec G115 -- masked to one byte each
}

// channel is the WCAG 2.x linearised sRGB channel (the 0.03928 cut-off of the WCAG text).
func channel(c uint8) float64 {
	v := float64(c) / 255
	if v <= 0.03928 {
		return v / 12.92
	}
	return math.Pow((v+0.055)/1.055, 2.4)
}

// Luminance is WCAG 2.x relative luminance: 0.2126 R + 0.7152 G + 0.0722 B of the linear channels.
func Luminance(c RGB) float64 {
	return 0.2126*channel(c.R) + 0.7152*channel(c.G) + 0.0722*channel(c.B)
}

// ContrastRatio is WCAG 2.x's (L1 + 0.05) / (L2 + 0.05), L1 the lighter: 1 to 21.
func ContrastRatio(a, b RGB) float64 {
	la, lb := Luminance(a), Luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

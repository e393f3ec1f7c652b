package screens

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
)

// Pure rules of the player protocol and of delivery from plays (docs/screens.md).

// The protocol's time bounds as durations (their numbers are in service.go).
const (
	ClockSkew = ClockSkewSeconds * time.Second
	Backfill  = BackfillDays * 24 * time.Hour
	CodeLife  = CodeLifeHours * time.Hour
)

// SignedMessage is what a device signs: METHOD, PATH_WITH_QUERY, TIMESTAMP and the hex SHA-256
// of the body, one per line.
func SignedMessage(method, pathWithQuery, timestamp, bodyHash string) string {
	return method + "\n" + pathWithQuery + "\n" + timestamp + "\n" + bodyHash
}

// BodyHash is the hex SHA-256 of a body (of the empty string for none).
func BodyHash(body []byte) string {
	s := sha256.Sum256(body)
	return hex.EncodeToString(s[:])
}

// FreshTimestamp reports whether a request's unix timestamp is within ClockSkew of now.
func FreshTimestamp(ts string, now time.Time) bool {
	n, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return false
	}
	d := now.Sub(time.Unix(n, 0))
	return d <= ClockSkew && d >= -ClockSkew
}

// TimeFlag is why a play's start cannot count: older than Backfill, or later than ClockSkew ahead.
func TimeFlag(started, now time.Time) string {
	switch {
	case started.Before(now.Add(-Backfill)):
		return FlagTooOld
	case started.After(now.Add(ClockSkew)):
		return FlagInFuture
	}
	return ""
}

// NormalizeCode is a typed pairing code as it is looked up: upper case, no dashes or spaces.
func NormalizeCode(code string) string {
	if len(code) > 64 {
		code = code[:64]
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == '-' || r == ' ':
			return -1
		case r >= 'a' && r <= 'z':
			return r - 'a' + 'A'
		}
		return r
	}, code)
}

// Loop is a face's slot and loop length in seconds: the face's spot duration and rotation from
// locations (A §3), or 8 s slots in a 64 s loop.
func Loop(spotSeconds, rotation int) (slot, loop int) {
	slot = spotSeconds
	if slot <= 0 || slot > 3600 {
		slot = DefaultSlotSeconds
	}
	if rotation <= 0 || rotation > 1000 {
		return slot, max(slot, DefaultLoopSeconds/DefaultSlotSeconds*slot)
	}
	return slot, slot * rotation
}

// OpenSecondsPerDay is the operating hours' length (close after open, in minutes of the day).
func OpenSecondsPerDay(openMin, closeMin int) int64 {
	if closeMin <= openMin {
		return 0
	}
	return int64(closeMin-openMin) * 60
}

// ExpectedPlaysPerWeek is how many times one booking plays in a week: one slot per loop, for every
// loop of the operating hours, seven days.
func ExpectedPlaysPerWeek(loopSeconds int, openSecondsPerDay int64) int64 {
	if loopSeconds <= 0 {
		return 0
	}
	return 7 * openSecondsPerDay / int64(loopSeconds)
}

// Impressions is the delivered figure of a face-week from its counted plays:
//
//	impressions = counted plays × (face weekly impressions ÷ expected plays per week)
//
// computed as counted × ooh × loop ÷ (7 × open seconds per day), rounded down, in integers.
func Impressions(counted, ooh int64, loopSeconds int, openSecondsPerDay int64) int64 {
	den := 7 * openSecondsPerDay
	if den <= 0 || counted <= 0 || ooh <= 0 {
		return 0
	}
	// counted ≤ a week of 1-second plays and ooh ≤ 10^9: the product fits int64.
	return counted * ooh * int64(loopSeconds) / den
}

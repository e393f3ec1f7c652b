package db

import "strings"

// Searches match typed text literally: a '%' or '_' a user types is that character,
// not LIKE's wildcard. One escape character, the backslash, serves both dialects; SQLite has no
// default escape character, so the clause names it.

// likeEscaper puts a backslash before LIKE's wildcards and before the backslash itself.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// LikeEscape returns s with LIKE's wildcards escaped, for a pattern used with Like's clause.
func LikeEscape(s string) string { return likeEscaper.Replace(s) }

// Contains returns the condition "expr LIKE ?" and its argument matching the rows whose expr
// contains text literally.
func Contains(expr, text string) (string, string) {
	return Like(expr, text), "%" + LikeEscape(text) + "%"
}

// HasPrefix returns the condition "expr LIKE ?" and its argument matching the rows whose expr
// starts with text literally.
func HasPrefix(expr, text string) (string, string) {
	return Like(expr, text), LikeEscape(text) + "%"
}

// Like is "expr LIKE ?" for a pattern built from text by LikeEscape. The ESCAPE clause is added
// only when text holds a character that was escaped: SQLite serves a prefix LIKE from an index
// only without one, so an ordinary search keeps its index.
func Like(expr, text string) string {
	if strings.ContainsAny(text, `\%_`) {
		return expr + ` LIKE ? ESCAPE '\'`
	}
	return expr + " LIKE ?"
}

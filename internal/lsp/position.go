package lsp

import (
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/turnorder/turnorder/dsl"
)

// Positions differ: a dsl.Pos has a line and a column from 1, the column
// counting characters (runes); the protocol's lines and characters count
// from 0, and a character is a UTF-16 code unit, so that "é" is one but
// "🎲" is two.

// lineText returns the text of line n (from 0) of text, without its
// newline, and the byte offset where it starts; "" and len(text) past the
// last line.
func lineText(text string, n int) (string, int) {
	off := 0
	for ; n > 0; n-- {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return "", len(text)
		}
		off += i + 1
	}
	line := text[off:]
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	return line, off
}

// position converts p to the protocol's terms.
func position(text string, p dsl.Pos) protocol.Position {
	if p.Line < 1 {
		return protocol.Position{}
	}
	line, _ := lineText(text, p.Line-1)
	units := 0
	for i, r := range []rune(line) {
		if i >= p.Column-1 {
			break
		}
		units += utf16.RuneLen(r)
	}
	return protocol.Position{Line: protocol.UInteger(p.Line - 1), Character: protocol.UInteger(units)}
}

// utf16Len is the length of s in UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// byteInLine is the byte offset in line of the protocol's character c; a
// character past the end of the line is the end of it, as the protocol
// says, and one in the middle of a surrogate pair is the rune's start.
func byteInLine(line string, c int) int {
	units := 0
	for i, r := range line {
		n := utf16.RuneLen(r)
		if units+n > c {
			return i
		}
		units += n
	}
	return len(line)
}

// offsetOf is the byte offset in text of the protocol's position p.
func offsetOf(text string, p protocol.Position) int {
	line, start := lineText(text, int(p.Line))
	return start + byteInLine(line, int(p.Character))
}

// dslPos is the protocol's position p as a dsl.Pos (line and column;
// no file, no offset), for comparing with the nodes' positions.
func dslPos(text string, p protocol.Position) dsl.Pos {
	line, _ := lineText(text, int(p.Line))
	b := byteInLine(line, int(p.Character))
	return dsl.Pos{Line: int(p.Line) + 1, Column: utf8.RuneCountInString(line[:b]) + 1}
}

func isWordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// wordAt returns the word (a name or keyword) at or just before the
// protocol's position p, and its range; "" if there is none.
func wordAt(text string, p protocol.Position) (string, protocol.Range) {
	line, _ := lineText(text, int(p.Line))
	b := byteInLine(line, int(p.Character))
	start, end := b, b
	for start > 0 {
		r, n := utf8.DecodeLastRuneInString(line[:start])
		if !isWordRune(r) {
			break
		}
		start -= n
	}
	for end < len(line) {
		r, n := utf8.DecodeRuneInString(line[end:])
		if !isWordRune(r) {
			break
		}
		end += n
	}
	rng := protocol.Range{
		Start: protocol.Position{Line: p.Line, Character: protocol.UInteger(utf16Len(line[:start]))},
		End:   protocol.Position{Line: p.Line, Character: protocol.UInteger(utf16Len(line[:end]))},
	}
	return line[start:end], rng
}

// wordEnd is the end of the word that starts at p, or the end of p's line
// if no word starts there (a diagnostic at an unexpected '}' or at the end
// of a line still gets a range an editor can show).
func wordEnd(text string, p protocol.Position) protocol.Position {
	line, _ := lineText(text, int(p.Line))
	b := byteInLine(line, int(p.Character))
	end := b
	for end < len(line) {
		r, n := utf8.DecodeRuneInString(line[end:])
		if !isWordRune(r) {
			break
		}
		end += n
	}
	if end == b {
		if end < len(line) {
			_, n := utf8.DecodeRuneInString(line[end:])
			end += n
		} else {
			end = len(line)
		}
	}
	return protocol.Position{Line: p.Line, Character: protocol.UInteger(utf16Len(line[:end]))}
}

// contains reports whether the node n spans p.
func contains(n dsl.Node, p dsl.Pos) bool {
	start, end := n.Pos(), n.End()
	if start.Line < 1 || end.Line < 1 {
		return false
	}
	return !less(p, start) && less(p, end)
}

func less(a, b dsl.Pos) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Column < b.Column
}

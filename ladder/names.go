package ladder

import (
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Skeleton is the key two bot names are compared by: names with the same
// skeleton look alike and cannot both be registered (the bots table keeps
// it in its unique name_key column). It follows the skeleton of UTS #39
// (Unicode security mechanisms, section 4), made coarser on purpose:
//
//  1. NFKC: compatibility forms become their plain letters (fullwidth
//     "ａ" is "a", "ﬁ" is "fi", "ℓ" is "l");
//  2. combining marks are dropped ("é" is "e");
//  3. Cyrillic and Greek homoglyphs become the Latin letter they look
//     like, capitals to capitals ("А" Cyrillic is "A", "ο" Greek is "o");
//  4. full case folding ("ALPHA" is "alpha", "ß" is "ss");
//  5. digits and letters that look alike fold together: "0" is "o"; "1",
//     "i" and "l" are "l"; "rn" is "m" and "vv" is "w";
//  6. the separators '-', '_' and '.' are one ("bob-2" is "bob_2").
//
// Step 5 folds more than UTS #39 (which keeps "i" apart from "l") because
// case folding comes first: "I" must equal "i" and look like "l", so all
// three fold together. A false clash costs a registrant another name; a
// missed one lets a bot pass for another. ValidName admits ASCII names
// only, so steps 1 to 3 matter for what a future, wider name set would
// let in; Skeleton is defined on any string.
//
// The skeleton is stored: changing this function is a schema migration
// that recomputes name_key (TestSkeleton pins it).
func Skeleton(name string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(norm.NFKC.String(name)) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		if l, ok := homoglyphs[r]; ok {
			r = l
		}
		b.WriteRune(r)
	}
	folded := cases.Fold().String(b.String())
	b.Reset()
	for _, r := range folded {
		if l, ok := lookalikes[r]; ok {
			r = l
		}
		b.WriteRune(r)
	}
	return sequences.Replace(b.String())
}

// homoglyphs maps Cyrillic and Greek letters to the Latin letters they
// are drawn like (UTS #39 confusables.txt, the Latin prototypes of these
// scripts), before case folding, so that a capital maps to a capital.
var homoglyphs = map[rune]rune{
	// Cyrillic capitals
	'А': 'A', 'В': 'B', 'Е': 'E', 'З': '3', 'І': 'I', 'Ј': 'J', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O',
	'Р': 'P', 'С': 'C', 'Т': 'T', 'У': 'Y', 'Х': 'X', 'Ѕ': 'S', 'Ү': 'Y', 'Ԛ': 'Q', 'Ԝ': 'W', 'Ӏ': 'l',
	'Ь': 'b',
	// Cyrillic small letters
	'а': 'a', 'в': 'B', 'е': 'e', 'з': '3', 'і': 'i', 'ј': 'j', 'к': 'k', 'м': 'M', 'н': 'H', 'о': 'o',
	'р': 'p', 'с': 'c', 'т': 'T', 'у': 'y', 'х': 'x', 'ѕ': 's', 'ү': 'y', 'һ': 'h', 'ԁ': 'd', 'ԛ': 'q',
	'ԝ': 'w', 'ӏ': 'l', 'ь': 'b',
	// Greek capitals
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O',
	'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X',
	// Greek small letters
	'α': 'a', 'γ': 'y', 'ι': 'i', 'κ': 'k', 'ν': 'v', 'ο': 'o', 'ρ': 'p', 'τ': 't', 'υ': 'u', 'χ': 'x',
	'ω': 'w', 'ϲ': 'c', 'ϳ': 'j',
	// Latin letters drawn like others
	'ı': 'i', 'ȷ': 'j', 'ɡ': 'g', 'ɑ': 'a', 'ǀ': 'l',
}

// lookalikes folds, after case folding, the digits, letters and
// separators that pass for one another.
var lookalikes = map[rune]rune{
	'0': 'o', '1': 'l', 'i': 'l', '|': 'l',
	'-': '_', '.': '_',
}

// sequences are the letter pairs drawn like one letter.
var sequences = strings.NewReplacer("rn", "m", "vv", "w")

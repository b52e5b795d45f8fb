/-
Copyright (c) 2023 F. G. Dorais. All rights reserved.
Released under Apache 2.0 license as described in the file LICENSE.
Authors: F. G. Dorais
-/
module

public import Batteries.Data.Array.Match
public import Batteries.Data.String.Basic

@[expose] public section

namespace String

/-- Knuth-Morris-Pratt matcher type

This type is used to keep data for running the Knuth-Morris-Pratt (KMP) string matching algorithm.
KMP is a linear time algorithm to locate all substrings of a string that match a given pattern.
Generating the algorithm data is also linear in the length of the pattern but the data can be
re-used to match the same pattern over different strings.

The KMP data for a pattern string can be generated using `Matcher.ofString`. Then `Matcher.find?`
and `Matcher.findAll` can be used to run the algorithm on an input string.
```
def m := Matcher.ofString "abba"

#eval Option.isSome <| m.find? "AbbabbA" -- false
#eval Option.isSome <| m.find? "aabbaa" -- true

#eval Array.size <| m.findAll "abbabba" -- 2
#eval Array.size <| m.findAll "abbabbabba" -- 3
```
-/
structure Matcher extends Array.Matcher Char where
  /-- The pattern for the matcher -/
  pattern : Substring.Raw

/-- Make KMP matcher from pattern substring -/
@[inline] def Matcher.ofSubstring (pattern : Substring.Raw) : Matcher where
  toMatcher := Array.Matcher.ofStream pattern
  pattern := pattern

/-- Make KMP matcher from pattern string -/
@[inline] def Matcher.ofString (pattern : String) : Matcher :=
  Matcher.ofSubstring pattern

/-- The byte size of the string pattern for the matcher -/
abbrev Matcher.patternSize (m : Matcher) : Nat := m.pattern.bsize

/-- Find all substrings of `s` matching `m.pattern`. -/
partial def Matcher.findAll (m : Matcher) (s : Substring.Raw) : Array Substring.Raw :=
  loop s m.toMatcher #[]
where
  /-- Accumulator loop for `String.Matcher.findAll` -/
  loop (s : Substring.Raw) (am : Array.Matcher Char) (occs : Array Substring.Raw) :
      Array Substring.Raw :=
    match am.next? s with
    | none => occs
    | some (s, am) =>
      loop s am <| occs.push { s with
        startPos := ⟨s.startPos.byteIdx - m.patternSize⟩
        stopPos := s.startPos }

/-- Find the first substring of `s` matching `m.pattern`, or `none` if no such substring exists. -/
def Matcher.find? (m : Matcher) (s : Substring.Raw) : Option Substring.Raw :=
  match m.next? s with
  | none => none
  | some (s, _) =>
    some { s with
      startPos := ⟨s.startPos.byteIdx - m.patternSize⟩
      stopPos := s.startPos }

end String

namespace Substring.Raw

/--
Returns all the substrings of `s` that match `pattern`.
-/
@[inline] def findAllSubstr (s pattern : Substring.Raw) : Array Substring.Raw :=
  (String.Matcher.ofSubstring pattern).findAll s

/--
Returns the first substring of `s` that matches `pattern`,
or `none` if there is no such substring.
-/
@[inline] def findSubstr? (s pattern : Substring.Raw) : Option Substring.Raw :=
  (String.Matcher.ofSubstring pattern).find? s

/--
Returns true iff `pattern` occurs as a substring of `s`.
-/
@[inline] def containsSubstr (s pattern : Substring.Raw) : Bool :=
  s.findSubstr? pattern |>.isSome

end Substring.Raw

section Deprecations

@[deprecated Substring.Raw.findAllSubstr (since := "2025-11-16"),
  inherit_doc Substring.Raw.findAllSubstr]
abbrev Substring.findAllSubstr := Substring.Raw.findAllSubstr

@[deprecated Substring.Raw.findSubstr? (since := "2025-11-16"),
  inherit_doc Substring.Raw.findSubstr?]
abbrev Substring.findSubstr? := Substring.Raw.findSubstr?

@[deprecated Substring.Raw.containsSubstr (since := "2025-11-16"),
  inherit_doc Substring.Raw.containsSubstr]
abbrev Substring.containsSubstr := Substring.Raw.containsSubstr

end Deprecations

namespace String

@[inherit_doc Substring.Raw.findAllSubstr]
abbrev findAllSubstr (s : String) (pattern : Substring.Raw) : Array Substring.Raw :=
  (String.Matcher.ofSubstring pattern).findAll s

@[inherit_doc Substring.Raw.findSubstr?]
abbrev findSubstr? (s : String) (pattern : Substring.Raw) : Option Substring.Raw :=
  s.toRawSubstring.findSubstr? pattern

@[deprecated String.contains (since := "2026-02-25"), inherit_doc Substring.Raw.containsSubstr]
abbrev containsSubstr (s : String) (pattern : Substring.Raw) : Bool :=
  s.toRawSubstring.containsSubstr pattern

end String

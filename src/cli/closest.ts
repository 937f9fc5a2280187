// The nearest of some names to a word typed wrong, by edit distance: "did you mean sources?", "--wait?".

/** Levenshtein distance: insertions, deletions and substitutions, one each. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      row.push(Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, substitution));
    }
    previous = row;
  }
  return previous[b.length] ?? 0;
}

/** The candidate nearest `word`, when it is near enough to be a typo (at most 2 edits, and at most half the word). */
export function closest(word: string, candidates: string[]): string | undefined {
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate);
    if (distance <= 2 && distance <= Math.max(candidate.length, word.length) / 2 && (!best || distance < best.distance))
      best = { candidate, distance };
  }
  return best?.candidate;
}

/**
 * "Did you mean": the known names closest to a misspelt one. A name is close when it differs only in
 * case, is within a small edit distance (a typo: one edit per three characters, so `Gian` → `Gain` but
 * never `h` → `g`), or one is a prefix of the other (`Det` → `Detector`, `in` → `i`).
 */

/**
 * At most `limit` close names, the closest first (declaration order breaks ties); only the case-insensitive equals if
 * there are any.
 */
export function closeNames(name: string, candidates: Iterable<string>, limit = 3): string[] {
    const typed = name.toLowerCase();
    const scored: Array<{ candidate: string; score: number; order: number }> = [];
    const seen = new Set<string>();
    let order = 0;
    for (const candidate of candidates) {
        if (candidate === name || seen.has(candidate)) continue;
        seen.add(candidate);
        const score = closeness(typed, candidate.toLowerCase());
        if (score !== undefined) scored.push({ candidate, score, order: order++ });
    }
    scored.sort((a, b) => a.score - b.score || a.order - b.order);
    // A name that differs only in case is surely the one meant: no other suggestion beside it.
    const best = scored[0]?.score === 0 ? scored.filter(s => s.score === 0) : scored;
    return best.slice(0, limit).map(s => s.candidate);
}

/** A score (lower is closer) when `known` is close to `typed` (both lower case), else undefined. */
function closeness(typed: string, known: string): number | undefined {
    const distance = editDistance(typed, known);
    if (distance <= Math.floor(typed.length / 3)) return distance;
    // Prefixes rank after every typo: a completion of what was typed, or what was typed with extra characters.
    if (known.startsWith(typed)) return 100 + known.length - typed.length;
    if (typed.startsWith(known) && known.length * 2 >= typed.length) return 100 + typed.length - known.length;
    return undefined;
}

/** Levenshtein distance with adjacent transpositions (optimal string alignment): `Gian` → `Gain` is one edit. */
export function editDistance(a: string, b: string): number {
    let before: number[] = [];
    let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
        const current = [i];
        for (let j = 1; j <= b.length; j++) {
            current[j] = Math.min(
                previous[j] + 1,
                current[j - 1] + 1,
                previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
            );
            if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
                current[j] = Math.min(current[j], before[j - 2] + 1);
        }
        before = previous;
        previous = current;
    }
    return previous[b.length];
}

/** `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'`. */
export function quotedAlternatives(names: readonly string[]): string {
    const quoted = names.map(n => `'${n}'`);
    return quoted.length <= 1 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

// Token soups for the parser: random but plausible .chain tokens, of a chosen size. Plain JavaScript (typed by
// token-soup.d.ts) so that the bench (bench/language/fuzz-token-soup.mjs) runs it under node as the tests do.
// Besides uniform soups, a soup has long runs of one repeated snippet (a list of 10⁵ entries, 10⁵ open braces):
// what overflows a recursive parser or a check that spreads an array into a call.

const PUNCTUATION = ['{', '}', '(', ')', ':', ',', '.', '..', '->', '<', '<=', '>=', '%', '-', '=', '"', '"x"'];
const NUMBERS = ['0', '1', '4', '16', '0.5', '1.5', '40', '256', '1e3', '-1', '99.9', '1e300'];
const NAMES = ['P', 'F', 'B', 'C', 'a', 'b', 's', 'k', 'o', 'i', 'x', 'gain', 'g1', 'L2', 'sys'];
const SPACES = [' ', ' ', ' ', '\n', '\n  ', '\t'];

/**
 * A soup of about `bytes` bytes from `keywords` (the grammar's) and the tokens above, drawn with `random`
 * (prng.js). Returns the text.
 */
export function tokenSoup(random, bytes, keywords) {
    const pick = list => list[Math.floor(random() * list.length)];
    const token = () => {
        const r = random();
        if (r < 0.45) return pick(keywords);
        if (r < 0.7) return pick(PUNCTUATION);
        if (r < 0.85) return pick(NUMBERS);
        return pick(NAMES);
    };
    const parts = [];
    let size = 0;
    while (size < bytes) {
        let piece;
        if (random() < 0.02) {
            // a long run of one snippet: a list, a chain of connections, nesting
            const snippet = Array.from({ length: 1 + Math.floor(random() * 4) }, token).join(' ') + ' ';
            const times = Math.max(1, Math.floor((bytes - size) / snippet.length / (1 + random() * 3)));
            piece = snippet.repeat(times);
        } else piece = token() + pick(SPACES);
        parts.push(piece);
        size += piece.length;
    }
    return parts.join('');
}

/** Sizes that grow from a few bytes to `largest`, geometrically, `count` of them. */
export function growingSizes(count, largest, smallest = 8) {
    const ratio = Math.pow(largest / smallest, 1 / Math.max(1, count - 1));
    return Array.from({ length: count }, (_, i) => Math.round(smallest * Math.pow(ratio, i)));
}

/**
 * Short names for a zoomed-out drawing: a node too narrow for its name shows the shortest start of it that no
 * other node's name shares (`darkref` → `darkr` beside `dark`, `defects` → `def`), or the initials of a camelCase
 * name (`darkFrameSubtract` → `dFS`), rather than the first letter and an ellipsis, which reads the same on every
 * node of a chain named b1 … b200.
 */

/** The first letter, every capital and the trailing digits: `darkFrame2` → `dF2`. */
export function abbreviate(name: string): string {
    const digits = /\d+$/.exec(name)?.[0] ?? '';
    const stem = name.slice(0, name.length - digits.length);
    return stem.charAt(0) + stem.slice(1).replace(/[^A-Z]/g, '') + digits;
}

/** The shortest start of `name` (two characters at least) that starts no other name; else the name. */
function uniquePrefix(name: string, others: string[]): string {
    for (let length = 2; length < name.length; length++) {
        const prefix = name.slice(0, length);
        if (!others.some(other => other !== name && other.startsWith(prefix))) return prefix;
    }
    return name;
}

/** A unique short name for each distinct name. */
export function shortNames(names: Iterable<string>): Map<string, string> {
    const distinct = [...new Set(names)];
    const sorted = [...distinct].sort();
    const result = new Map<string, string>();
    for (const name of distinct) {
        // only names sharing the first letter can share a prefix: look at those (a sorted run)
        const others = sorted.filter(other => other.charAt(0) === name.charAt(0));
        result.set(name, uniquePrefix(name, others));
    }
    const taken = new Set([...distinct, ...result.values()]);
    for (const name of distinct) {
        const initials = abbreviate(name);
        if (/[A-Z]/.test(name.slice(1)) && initials.length < result.get(name)!.length && !taken.has(initials)) {
            taken.add(initials);
            result.set(name, initials);
        }
    }
    return result;
}

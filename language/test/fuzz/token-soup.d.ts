/** A soup of about `bytes` bytes of .chain tokens (`keywords` and punctuation, numbers, names), drawn with `random`. */
export declare function tokenSoup(random: () => number, bytes: number, keywords: readonly string[]): string;
/** `count` sizes growing geometrically from `smallest` to `largest`. */
export declare function growingSizes(count: number, largest: number, smallest?: number): number[];

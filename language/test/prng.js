// mulberry32: a small seeded PRNG, identical on every platform, so that random tests, fuzz cases and generated
// bench models reproduce from their seed. Plain JavaScript (typed by prng.d.ts): the benches run it under node.

/** A generator of numbers in [0, 1) from `seed`. */
export function prng(seed) {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

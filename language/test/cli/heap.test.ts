/** The CLI's collection on demand: it frees what nothing holds, in a process started without --expose-gc. */
import { expect, test } from 'vitest';
import { collectGarbage } from '../../src/cli/heap.js';

test('collectGarbage frees unreachable memory at once', () => {
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    let garbage: number[][] | undefined = Array.from({ length: 200 }, () =>
        Array.from({ length: 20_000 }, Math.random),
    );
    expect(process.memoryUsage().heapUsed - before).toBeGreaterThan(20e6);
    garbage = undefined;
    collectGarbage();
    expect(garbage).toBeUndefined();
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(5e6);
});

/**
 * "Update ETP from measurement": the latencies of the last run become the execution-time profile of the PTTS
 * component that runs the chain (`etp chain X` → `etp pmf { … }`), written as a text edit so undo works.
 */
import { readFileSync } from 'node:fs';

/** Latencies (ns) of a run's latencies.csv (iteration,start_ns,end_ns). */
export function readLatencies(csv: string): number[] {
    return readFileSync(csv, 'utf-8').split('\n').slice(1).filter(l => l.trim()).map(l => {
        const [, start, end] = l.split(',').map(Number);
        return end - start;
    });
}

/**
 * The latencies as pmf text on `bins` equal bins (bin centres rounded up to 0.01 ms) whose probabilities
 * are exact decimals (millionths) summing to exactly 1.
 */
export function pmfText(latenciesNs: number[], bins = 20): string {
    const lo = Math.min(...latenciesNs), hi = Math.max(...latenciesNs);
    const width = (hi - lo) / bins || 1;
    const counts = new Map<number, number>();
    for (const v of latenciesNs) {
        const i = Math.min(bins - 1, Math.floor((v - lo) / width));
        const centre = Math.ceil((lo + (i + 0.5) * width) / 1e4) / 100; // ms, 0.01 ms grid
        counts.set(centre, (counts.get(centre) ?? 0) + 1);
    }
    const entries = [...counts.entries()].sort((a, b) => a[0] - b[0]);
    const micro = entries.map(([, n]) => Math.round((n / latenciesNs.length) * 1e6));
    const largest = micro.indexOf(Math.max(...micro));
    micro[largest] += 1e6 - micro.reduce((s, m) => s + m, 0); // exactly one in total
    return `pmf { ${entries.map(([ms], i) => `${ms} ms: ${(micro[i] / 1e6).toFixed(6).replace(/0+$/, '').replace(/\.$/, '')}`).join(', ')} }`;
}

/** The range (offsets) of every `etp chain NAME` in the text. */
export function chainEtpRanges(text: string, chain: string): Array<[number, number]> {
    const pattern = new RegExp(`\\betp\\s+chain\\s+${chain}\\b`, 'g');
    return [...text.matchAll(pattern)].map(m => [m.index, m.index + m[0].length]);
}

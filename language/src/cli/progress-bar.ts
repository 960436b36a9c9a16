/**
 * The progress of long backend work (runs, deploys, sweeps, experiments) as one bar on a terminal, redrawn in
 * place: share done, time left (from the pace so far) and the backend's message. Nothing in a pipe or a log, where
 * a redrawn line would only interleave with the results.
 */
import type { Progress } from '../backend-rpc/backend-client.js';

const WIDTH = 24;

export interface ProgressBar {
    /** What the backend client calls with each progress notification; absent when nothing is shown. */
    onProgress?: (p: Progress) => void;
    /** Ends the bar's line (before results or an error are printed). */
    end(): void;
}

export function formatSeconds(seconds: number): string {
    if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
    if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
    return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`;
}

/** One line of the bar: `[██████··········]  37 %  ~2 min 10 s left  message`. */
export function progressLine(fraction: number, elapsedSeconds: number, message: string): string {
    const f = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
    const full = Math.round(f * WIDTH);
    // the pace says little before a few per cent are done
    const left = f >= 0.02 && f < 1 ? `  ~${formatSeconds((elapsedSeconds * (1 - f)) / f)} left` : '';
    return `  [${'█'.repeat(full)}${'·'.repeat(WIDTH - full)}] ${String(Math.round(f * 100)).padStart(3)} %${left}  ${message}`;
}

export function progressBar(json: boolean | undefined, stream: NodeJS.WriteStream = process.stderr): ProgressBar {
    if (json || !stream.isTTY) return { end: () => undefined };
    const started = Date.now();
    let drawn = 0;
    return {
        onProgress: p => {
            const columns = Math.max(40, stream.columns || 100);
            const line = progressLine(p.fraction, (Date.now() - started) / 1000, p.message).slice(0, columns - 1);
            stream.write(`\r${line.padEnd(drawn)}`);
            drawn = line.length;
        },
        end: () => {
            if (drawn) stream.write('\n');
            drawn = 0;
        },
    };
}

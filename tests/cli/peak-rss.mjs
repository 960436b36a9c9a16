// Imported into a node process before its main module (node --import): writes its peak resident memory (VmHWM,
// KiB) to stderr as it exits.
import { readFileSync } from 'node:fs';

process.on('exit', () => {
    const peak = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync('/proc/self/status', 'utf-8'));
    if (peak) process.stderr.write(`peak-rss-kib ${peak[1]}\n`);
});

/**
 * Every error the CLI prints starts the same way: `chainlab: error: …`, or `FILE:LINE:COL: error: …` where the error
 * has a place in a file (as compilers write it, so that editors and terminals link it). Commander's own usage errors
 * and the backend's messages come in either form or none and leave here in one.
 */
const PLACED = /^[^\s:][^:\n]*:\d+:\d+: (error|warning): /;

export function errorLine(message: string): string {
    if (message.startsWith('chainlab: ') || PLACED.test(message)) return message;
    if (message.startsWith('error: ')) return `chainlab: ${message}`;
    return `chainlab: error: ${message}`;
}

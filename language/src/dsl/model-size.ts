/**
 * The largest model chainlab parses. Parsing and linking take a few hundred bytes of memory per byte of model
 * (a 20 MB model ran V8 out of its 4 GB heap, issue 17 F3), so larger files are refused before parsing, by the CLI
 * and the language server alike.
 */
export const MAX_MODEL_BYTES = 4 * 1024 * 1024;

const MiB = 1024 * 1024;

/** Why a model of `bytes` bytes is refused, or undefined if it is not. */
export function modelTooLarge(bytes: number): string | undefined {
    if (bytes <= MAX_MODEL_BYTES) return undefined;
    return `the model is ${(bytes / MiB).toFixed(1)} MiB, above chainlab's limit of ${MAX_MODEL_BYTES / MiB} MiB (parsing needs a few hundred bytes of memory per byte of model): split it into smaller files`;
}

/** The UTF-8 size of `text`, counted only as far as it matters for the limit. */
export function utf8Bytes(text: string): number {
    if (text.length * 3 <= MAX_MODEL_BYTES) return text.length; // cannot be over the limit: not worth counting
    let bytes = 0;
    for (let i = 0; i < text.length; i++) {
        const code = text.charCodeAt(i);
        if (code < 0x80) bytes += 1;
        else if (code < 0x800) bytes += 2;
        else if (code >= 0xd800 && code < 0xdc00) {
            bytes += 4; // a surrogate pair
            i++;
        } else bytes += 3;
    }
    return bytes;
}

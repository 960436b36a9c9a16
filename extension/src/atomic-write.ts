/**
 * The extension's one writer of files the user keeps (exported plots and diagrams, the backend's settings): the
 * bytes go to a hidden temporary name beside the file and are renamed over it, so a full disk or a closed window
 * never leaves half an SVG that looks complete.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Writes `data` to `path` (a local path) at once; throws with `path` and the reason. */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
    const folder = dirname(path);
    mkdirSync(folder, { recursive: true });
    const temporary = join(folder, `.${basename(path)}.${process.pid}.${Date.now().toString(36)}.tmp`);
    try {
        writeFileSync(temporary, data, { flag: 'wx' });
        renameSync(temporary, path);
    } catch (error) {
        rmSync(temporary, { force: true });
        throw new Error(`cannot write ${path}: ${(error as Error).message.replace(temporary, path)}`);
    }
}

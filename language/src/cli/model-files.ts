/**
 * The one place the CLI reads model files (through the reader it shares with the language server,
 * dsl/regular-file.ts) and the one place it writes its outputs (issue 17 F1-F4, F6, F7). Every
 * failure is a UsageError naming the path and the reason, never an errno with a stack.
 */
import { renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { modelTooLarge, MAX_MODEL_BYTES } from '../dsl/model-size.js';
import { FileRefusal, fsReason, readRegularFile } from '../dsl/regular-file.js';
import { UsageError } from './usage-error.js';

/** A model file's text, or a UsageError naming the path and the reason. */
export function readModelFile(path: string): string {
    try {
        return readRegularFile(path, MAX_MODEL_BYTES, modelTooLarge);
    } catch (error) {
        if (!(error instanceof FileRefusal)) throw error;
        const reason = error.message;
        if (reason === 'no such file') throw new UsageError(`${path}: no such file`);
        if (reason.startsWith('the model is')) throw new UsageError(`not reading ${path}: ${reason}`);
        throw new UsageError(`cannot read ${path}: ${reason}`);
    }
}

/** The same file (device and inode), or false where either does not exist. */
function sameFile(a: string, b: string): boolean {
    try {
        const [x, y] = [statSync(a), statSync(b)];
        return x.dev === y.dev && x.ino === y.ino;
    } catch {
        return false;
    }
}

/**
 * Writes an output file. A regular file (or a new one) is written under a temporary name and renamed, so a failed
 * write leaves the old file or none, never half of one; a device or a pipe (/dev/stdout) is written directly.
 * Refuses to overwrite one of `inputs` (`export m.chain -o m.chain` would replace the model by its IR).
 */
export function writeOutputFile(path: string, text: string, inputs: readonly string[] = []): void {
    const input = inputs.find(i => sameFile(i, path));
    if (input !== undefined)
        throw new UsageError(`not writing ${path}: it is the model ${input} itself; choose another output file`);
    let existing: ReturnType<typeof statSync> | undefined;
    try {
        existing = statSync(path);
    } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
            throw new UsageError(`cannot write ${path}: ${fsReason(error)}`);
    }
    if (existing?.isDirectory()) throw new UsageError(`cannot write ${path}: it is a directory`);
    try {
        if (existing && !existing.isFile()) {
            writeFileSync(path, text);
            return;
        }
        const folder = dirname(resolve(path));
        if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory())
            throw new UsageError(`cannot write ${path}: no such directory ${dirname(path)}`);
        const temporary = join(folder, `.${basename(path)}.${process.pid}.tmp`);
        try {
            writeFileSync(temporary, text);
            renameSync(temporary, path);
        } finally {
            rmSync(temporary, { force: true });
        }
    } catch (error) {
        if (error instanceof UsageError) throw error;
        throw new UsageError(`cannot write ${path}: ${fsReason(error)}`);
    }
}

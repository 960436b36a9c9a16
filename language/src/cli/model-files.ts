/**
 * The one place the CLI reads model files and the one place it writes its outputs (issue 17 F1-F4, F6, F7). Every
 * failure is a UsageError naming the path and the reason, never an errno with a stack.
 */
import {
    closeSync,
    constants,
    fstatSync,
    openSync,
    readSync,
    renameSync,
    rmSync,
    statSync,
    writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { modelTooLarge, MAX_MODEL_BYTES } from '../dsl/model-size.js';
import { UsageError } from './usage-error.js';

/** The reason in a Node file-system error ("permission denied"), without its code and path. */
export function fsReason(error: unknown): string {
    const { code, message } = error as NodeJS.ErrnoException;
    const reason = /^[A-Z]+: ([^,]+)/.exec(message)?.[1];
    return reason ?? code ?? String(message);
}

/** What a non-regular file is, for a refusal. */
function kindOf(stat: ReturnType<typeof fstatSync>): string {
    if (stat.isDirectory()) return 'a directory';
    if (stat.isFIFO()) return 'a pipe (FIFO)';
    if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
    if (stat.isSocket()) return 'a socket';
    return 'a special file';
}

/** A model file's text: only a regular, readable file within the size limit (a FIFO or /dev/zero would never end). */
export function readModelFile(path: string): string {
    let fd: number;
    try {
        // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below
        fd = openSync(resolve(path), constants.O_RDONLY | constants.O_NONBLOCK);
    } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new UsageError(`${path}: no such file`);
        throw new UsageError(`cannot read ${path}: ${fsReason(error)}`);
    }
    try {
        const stat = fstatSync(fd);
        if (!stat.isFile()) throw new UsageError(`cannot read ${path}: it is ${kindOf(stat)}, not a model file`);
        const tooLarge = modelTooLarge(stat.size);
        if (tooLarge) throw new UsageError(`not reading ${path}: ${tooLarge}`);
        // read at most one byte past the limit: a file that grew since fstat is still refused
        const buffer = Buffer.alloc(Math.min(stat.size, MAX_MODEL_BYTES) + 1);
        let length = 0;
        for (let n; length < buffer.length && (n = readSync(fd, buffer, length, buffer.length - length, null)) > 0;)
            length += n;
        if (length > MAX_MODEL_BYTES) throw new UsageError(`not reading ${path}: ${modelTooLarge(length)!}`);
        return buffer.toString('utf-8', 0, length);
    } catch (error) {
        if (error instanceof UsageError) throw error;
        throw new UsageError(`cannot read ${path}: ${fsReason(error)}`);
    } finally {
        closeSync(fd);
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

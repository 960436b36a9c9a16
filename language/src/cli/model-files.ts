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

/** Why a file was not read: the reason only, the caller names the path. */
class Refusal extends Error {}

/**
 * The text of a regular, readable file of at most `maxBytes` (a FIFO or /dev/zero would never end, a huge file
 * would exhaust memory); anything else is a Refusal with the reason.
 */
function readRegularFile(path: string, maxBytes: number, tooLarge: (bytes: number) => string | undefined): string {
    let fd: number;
    try {
        // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below
        fd = openSync(resolve(path), constants.O_RDONLY | constants.O_NONBLOCK);
    } catch (error) {
        throw new Refusal((error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : fsReason(error));
    }
    try {
        const stat = fstatSync(fd);
        if (!stat.isFile()) throw new Refusal(`it is ${kindOf(stat)}, not a regular file`);
        if (stat.size > maxBytes) throw new Refusal(tooLarge(stat.size) ?? 'too large');
        // read at most one byte past the limit: a file that grew since fstat is still refused
        const buffer = Buffer.alloc(Math.min(stat.size, maxBytes) + 1);
        let length = 0;
        for (let n; length < buffer.length && (n = readSync(fd, buffer, length, buffer.length - length, null)) > 0;)
            length += n;
        if (length > maxBytes) throw new Refusal(tooLarge(length) ?? 'too large');
        return buffer.toString('utf-8', 0, length);
    } catch (error) {
        if (error instanceof Refusal) throw error;
        throw new Refusal(fsReason(error));
    } finally {
        closeSync(fd);
    }
}

/** A model file's text, or a UsageError naming the path and the reason. */
export function readModelFile(path: string): string {
    try {
        return readRegularFile(path, MAX_MODEL_BYTES, modelTooLarge);
    } catch (error) {
        const reason = (error as Refusal).message;
        if (reason === 'no such file') throw new UsageError(`${path}: no such file`);
        if (reason.startsWith('the model is')) throw new UsageError(`not reading ${path}: ${reason}`);
        throw new UsageError(`cannot read ${path}: ${reason}`);
    }
}

/** Measurement files (etp histogram) above this are not read: one latency per line, 256 MiB is tens of millions. */
const MAX_MEASUREMENT_BYTES = 256 * 1024 * 1024;

/** A measurement file's text; throws an Error with the reason only (the export names the file). */
export function readMeasurementFile(path: string): string {
    return readRegularFile(path, MAX_MEASUREMENT_BYTES, bytes =>
        bytes > MAX_MEASUREMENT_BYTES
            ? `${(bytes / 1024 / 1024).toFixed(0)} MiB, above the limit of ${MAX_MEASUREMENT_BYTES / 1024 / 1024} MiB for a measurement file`
            : undefined,
    );
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

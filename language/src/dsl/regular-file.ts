/**
 * The one reader of the files a model names or is (issue 17 F1-F4): the CLI reads models and measurement files through
 * it, the language server's IR export and the histogram check read measurement files through it. Only a regular file
 * is read (a FIFO or /dev/zero would never end) and only up to a size limit (a huge file would exhaust memory).
 */
import { isUtf8 } from 'node:buffer';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { resolve } from 'node:path';

/** Why a file was not read: the reason only ("no such file", "it is a directory, not a regular file"), no path. */
export class FileRefusal extends Error {}

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

/**
 * The text of a regular, readable file of at most `maxBytes`; anything else is a FileRefusal with the reason
 * (`tooLarge` words the size refusal).
 */
export function readRegularFile(
    path: string,
    maxBytes: number,
    tooLarge: (bytes: number) => string | undefined,
): string {
    let fd: number;
    try {
        // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below
        fd = openSync(resolve(path), constants.O_RDONLY | constants.O_NONBLOCK);
    } catch (error) {
        throw new FileRefusal((error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : fsReason(error));
    }
    try {
        const stat = fstatSync(fd);
        if (!stat.isFile()) throw new FileRefusal(`it is ${kindOf(stat)}, not a regular file`);
        if (stat.size > maxBytes) throw new FileRefusal(tooLarge(stat.size) ?? 'too large');
        const bytes = readToEnd(fd, stat.size, maxBytes);
        if (bytes.length > maxBytes) throw new FileRefusal(tooLarge(bytes.length) ?? 'too large');
        return utf8Text(bytes);
    } catch (error) {
        if (error instanceof FileRefusal) throw error;
        throw new FileRefusal(fsReason(error));
    } finally {
        closeSync(fd);
    }
}

/** Measurement files (etp histogram) above this are not read: one latency per line, 256 MiB is tens of millions. */
export const MAX_MEASUREMENT_BYTES = 256 * 1024 * 1024;

/** Why a measurement file of `bytes` bytes is refused, or undefined if it is not. */
export function measurementTooLarge(bytes: number, limit = MAX_MEASUREMENT_BYTES): string | undefined {
    const MiB = 1024 * 1024;
    return bytes > limit
        ? `${(bytes / MiB).toFixed(0)} MiB, above the limit of ${limit / MiB} MiB for a measurement file`
        : undefined;
}

/** A measurement file's text; throws a FileRefusal with the reason only (the export names the file). */
export function readMeasurementFile(path: string, limit = MAX_MEASUREMENT_BYTES): string {
    return readRegularFile(path, limit, bytes => measurementTooLarge(bytes, limit));
}

/**
 * The bytes of `fd` up to its end, or one byte past `maxBytes`: fstat's size is only where to start, since a procfs
 * file says 0 and a file that grows while it is read would otherwise be cut silently at its old size.
 */
function readToEnd(fd: number, size: number, maxBytes: number): Buffer {
    let buffer = Buffer.alloc(Math.min(size, maxBytes) + 1);
    let length = 0;
    for (;;) {
        if (length === buffer.length) {
            if (length > maxBytes) break;
            const larger = Buffer.alloc(Math.min(buffer.length * 2 + 4096, maxBytes + 1));
            buffer.copy(larger, 0, 0, length);
            buffer = larger;
        }
        const n = readSync(fd, buffer, length, buffer.length - length, null);
        if (n === 0) break;
        length += n;
    }
    return buffer.subarray(0, length);
}

/**
 * The text of `bytes`, which must be UTF-8: a stray byte of another encoding is refused with its line, not replaced
 * (each replacement character is 3 bytes, so a 4 MiB file of Latin-1 was refused as a 7 MiB model).
 */
function utf8Text(bytes: Buffer): string {
    if (isUtf8(bytes)) return bytes.toString('utf-8');
    const text = bytes.toString('utf-8');
    let offset = 0; // of the character at `i` in `bytes`
    for (let i = 0; i < text.length; i++) {
        const code = text.codePointAt(i)!;
        const width = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
        // U+FFFD is either written in the file (EF BF BD) or stands for bytes that are not UTF-8
        if (code === 0xfffd && !bytes.subarray(offset, offset + 3).equals(REPLACEMENT)) {
            const line = text.slice(0, i).split('\n').length;
            throw new FileRefusal(`it is not UTF-8 text: byte 0x${bytes[offset].toString(16)} at line ${line}`);
        }
        if (width === 4) i++; // a surrogate pair
        offset += width;
    }
    throw new FileRefusal('it is not UTF-8 text');
}

const REPLACEMENT = Buffer.from([0xef, 0xbf, 0xbd]);

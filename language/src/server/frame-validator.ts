/**
 * A guard in front of the language server's stdin. vscode-jsonrpc's reader stops for good at the first frame whose
 * Content-Length is not a number, and waits forever after a negative one or an endless one (issue 17 F18); this
 * stream passes on only well-formed frames (`Content-Length: N` within a bound, then N bytes), drops anything else
 * with a note and resynchronises at the next `Content-Length:` header, so one bad frame costs only itself.
 */
import { Transform, type TransformCallback } from 'node:stream';

/** Larger frames are refused: a client that means it sends a document far below this (documents stop at 4 MiB). */
export const MAX_FRAME_BYTES = 64 * 1024 * 1024;
/** A header block longer than this is garbage, not headers. */
const MAX_HEADER_BYTES = 4096;
const HEADER_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /^content-length$/i;
const RESYNC = Buffer.from('content-length:');

/** Where the next `Content-Length:` (any case) starts at or after `from`, or -1. */
function nextHeader(buffer: Buffer, from: number): number {
    for (let at = buffer.indexOf(':', from + RESYNC.length - 1); at >= 0; at = buffer.indexOf(':', at + 1)) {
        const start = at - (RESYNC.length - 1);
        if (
            start >= from &&
            buffer
                .subarray(start, at + 1)
                .toString('latin1')
                .toLowerCase() === 'content-length:'
        )
            return start;
    }
    return -1;
}

/** A frame's body length, or a problem and how many bytes to skip before looking for the next header. */
type Parsed = { length: number; headerBytes: number } | { problem: string; skip: number } | undefined;

/**
 * The frame header at the start of `buffer`: its body length, a problem, or undefined while incomplete. After a bad
 * line the search for the next header starts just after that line's start (a frame whose blank line was lost may be
 * followed by a good one in the same block).
 */
function parseHeader(buffer: Buffer, maxFrameBytes: number): Parsed {
    const end = buffer.indexOf(HEADER_END);
    if (end < 0 || end > MAX_HEADER_BYTES) {
        if (buffer.length <= MAX_HEADER_BYTES) return undefined;
        return { problem: `no end of the header within ${MAX_HEADER_BYTES} bytes`, skip: 1 };
    }
    let length: number | undefined;
    let lineStart = 0;
    for (const line of buffer.subarray(0, end).toString('latin1').split('\r\n')) {
        const skip = lineStart + 1;
        lineStart += line.length + 2;
        const colon = line.indexOf(':');
        // eslint-disable-next-line no-control-regex
        if (colon <= 0 || /[\x00-\x1f\x7f-\xff]/.test(line))
            return { problem: `a malformed header line: '${printable(line)}'`, skip };
        if (!CONTENT_LENGTH.test(line.slice(0, colon).trim())) continue; // Content-Type: the reader assumes utf-8
        const value = line.slice(colon + 1).trim();
        if (length !== undefined) return { problem: 'two Content-Length headers', skip: 1 };
        if (!/^\d{1,16}$/.test(value))
            return { problem: `Content-Length '${printable(value)}' is not a byte count`, skip };
        length = Number(value);
        if (length > maxFrameBytes)
            return { problem: `Content-Length ${value} is above the limit of ${maxFrameBytes} bytes`, skip };
    }
    if (length === undefined) return { problem: 'no Content-Length header', skip: 1 };
    return { length, headerBytes: end + HEADER_END.length };
}

/** At most 40 characters of what a client sent, without control characters, for a note. */
function printable(text: string): string {
    const clean = text.replace(/[^\x20-\x7e]/g, '?');
    return clean.length > 40 ? `${clean.slice(0, 40)}...` : clean;
}

export class FrameValidator extends Transform {
    /** Bytes not yet part of a frame (at most a header block and a chunk). */
    private head = Buffer.alloc(0);
    /** The body being received: collected as chunks, so a large frame is copied once. */
    private body: { length: number; chunks: Buffer[]; received: number } | undefined;
    /** After a bad frame: skip to the next Content-Length header found at or after this offset of `head`. */
    private resyncFrom: number | undefined;
    private drops = 0;

    /** `onDrop` hears one line per dropped frame or stretch of garbage (the first 100, then every 1000th). */
    constructor(
        private readonly onDrop: (reason: string) => void,
        private readonly maxFrameBytes = MAX_FRAME_BYTES,
    ) {
        super();
    }

    override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
        let rest = chunk;
        if (this.body) rest = this.takeBody(rest);
        if (rest.length > 0) {
            this.head = this.head.length === 0 ? rest : Buffer.concat([this.head, rest]);
            this.drain();
        }
        done();
    }

    /** Adds what the pending body still needs from `chunk`; returns the rest. */
    private takeBody(chunk: Buffer): Buffer {
        const body = this.body!;
        const taken = chunk.subarray(0, body.length - body.received);
        body.chunks.push(taken);
        body.received += taken.length;
        if (body.received < body.length) return Buffer.alloc(0);
        this.push(Buffer.from(`Content-Length: ${body.length}\r\n\r\n`));
        this.push(Buffer.concat(body.chunks, body.length));
        this.body = undefined;
        return chunk.subarray(taken.length);
    }

    private drain(): void {
        while (this.head.length > 0 && !this.body) {
            if (this.resyncFrom !== undefined || !this.startsWithHeader()) {
                const next = nextHeader(this.head, this.resyncFrom ?? 0);
                if (this.resyncFrom === undefined && next !== 0) this.note('bytes outside any frame');
                if (next < 0) {
                    // keep a tail that may be the start of a header cut by the chunk boundary
                    this.head = Buffer.from(this.head.subarray(Math.max(0, this.head.length - (RESYNC.length - 1))));
                    this.resyncFrom = 0;
                    return;
                }
                this.head = this.head.subarray(next);
                this.resyncFrom = undefined;
            }
            const header = parseHeader(this.head, this.maxFrameBytes);
            if (header === undefined) return;
            if ('problem' in header) {
                this.note(header.problem);
                this.head = this.head.subarray(header.skip);
                this.resyncFrom = 0;
                continue;
            }
            const rest = this.head.subarray(header.headerBytes);
            this.head = Buffer.alloc(0);
            this.body = { length: header.length, chunks: [], received: 0 };
            this.head = Buffer.from(this.takeBody(rest));
        }
    }

    /** Whether the bytes may start a header block (header names are letters, digits and '-'). */
    private startsWithHeader(): boolean {
        const line = this.head.subarray(0, Math.min(this.head.length, 64)).toString('latin1');
        return /^[A-Za-z][A-Za-z0-9-]*(:|$)/.test(line);
    }

    private note(reason: string): void {
        this.drops++;
        if (this.drops <= 100 || this.drops % 1000 === 0)
            this.onDrop(`dropped a bad message frame (${this.drops} so far): ${reason}`);
    }
}

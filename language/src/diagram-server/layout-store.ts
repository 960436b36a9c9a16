/**
 * ELK's drawings kept on disk between server processes, so that a diagram reopened after a window reload (or the
 * next day) is drawn without ELK: its layered layout of a 500-box chain costs a second of CPU on a small machine,
 * reading the kept drawing a few milliseconds. A drawing is filed under a hash of everything ELK reads and of ELK's
 * code (the server passes a fingerprint of its ELK bundle), so a changed graph, option or build never finds an old
 * one; gzipped (a 500-box chain's drawing: 476 KB of JSON, 34 KB). The store is a cache: a file that cannot be
 * read or written costs a layout, never a diagram.
 */
import { createHash } from 'node:crypto';
import {
    mkdirSync,
    readdirSync,
    readFileSync,
    renameSync,
    statSync,
    unlinkSync,
    utimesSync,
    writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { ElkNode } from 'elkjs/lib/elk-api.js';

/** Drawings kept: the diagrams of a few projects' files in their usual panel sizes. */
export const KEPT_DRAWINGS = 200;

/** Bytes kept at most, whatever the drawings' sizes (200 drawings of a 500-box chain take 7 MB). */
export const KEPT_BYTES = 32 * 1024 * 1024;

const SUFFIX = '.json.gz';

export class LayoutStore {
    private writes = 0;

    /**
     * `dir` is created on the first write; `elk` names the ELK that draws (a fingerprint of its code); `kept`
     * drawings and `keptBytes` bytes are kept at most, the least recently used go first.
     */
    constructor(
        readonly dir: string,
        private readonly elk: string,
        private readonly kept = KEPT_DRAWINGS,
        private readonly keptBytes = KEPT_BYTES,
    ) {}

    /** The drawing kept for `key` (layout-key.ts), if there is a whole one. */
    get(key: string): ElkNode | undefined {
        const file = this.fileOf(key);
        try {
            const drawing = JSON.parse(gunzipSync(readFileSync(file)).toString('utf-8')) as ElkNode;
            if (typeof drawing !== 'object' || drawing === null || !Array.isArray(drawing.children)) return undefined;
            const now = new Date();
            utimesSync(file, now, now); // used now: pruned last
            return drawing;
        } catch {
            return undefined; // none yet, or not readable: ELK draws it again and the file is replaced
        }
    }

    /** Keeps `drawing` for `key`; written whole or not at all (a reader never sees half a file). */
    put(key: string, drawing: ElkNode): void {
        const file = this.fileOf(key);
        const partial = `${file}.${process.pid}.part`;
        try {
            mkdirSync(this.dir, { recursive: true });
            writeFileSync(partial, gzipSync(JSON.stringify(drawing)));
            renameSync(partial, file);
        } catch {
            try {
                unlinkSync(partial);
            } catch {
                // nothing was written
            }
            return;
        }
        if (++this.writes % 20 === 1) this.prune();
    }

    /** Drops the least recently used drawings beyond `kept` or `keptBytes`. */
    prune(): void {
        try {
            const drawings = readdirSync(this.dir)
                .filter(name => name.endsWith(SUFFIX))
                .map(name => join(this.dir, name))
                .map(path => {
                    const { size, mtimeMs } = statSync(path);
                    return { path, size, mtimeMs };
                })
                .sort((a, b) => b.mtimeMs - a.mtimeMs);
            let bytes = 0;
            drawings.forEach((drawing, i) => {
                bytes += drawing.size;
                if (i >= this.kept || bytes > this.keptBytes) unlinkSync(drawing.path);
            });
        } catch {
            // another server pruned meanwhile, or the folder went: the next prune tries again
        }
    }

    private fileOf(key: string): string {
        const hash = createHash('sha256').update(this.elk).update('\0').update(key).digest('hex');
        return join(this.dir, `${hash.slice(0, 40)}${SUFFIX}`);
    }
}

/**
 * The store the editor asked for (`CHAINLAB_LAYOUT_STORE`: a folder in the extension's storage), for the ELK whose
 * code is in `elkFile`; none where it was not asked for or the code cannot be read.
 */
export function layoutStoreFromEnv(elkFile: string, env: NodeJS.ProcessEnv = process.env): LayoutStore | undefined {
    const dir = env.CHAINLAB_LAYOUT_STORE;
    if (!dir) return undefined;
    try {
        return new LayoutStore(dir, createHash('sha256').update(readFileSync(elkFile)).digest('hex'));
    } catch {
        return undefined;
    }
}

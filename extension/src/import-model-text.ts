/**
 * The parts of *Import model* that need no editor: where the .chain goes, which files the dialog offers, and what
 * the output channel says about an import.
 */
import { basename, dirname, extname, join } from 'node:path';
import type { ImportResult } from '@chainlab/contract';

/** The files another tool wrote that the backend reads (the explorer menu offers the same extensions). */
export const IMPORT_FILTERS: Record<string, string[]> = {
    'Models of other tools (SDF3, PREESM, Amalthea)': ['xml', 'pi', 'amxmi'],
};

/** Whether the file at `path` is one the command imports (by its extension, as the dialog and the menu offer). */
export function importable(path: string): boolean {
    const ext = extname(path).slice(1).toLowerCase();
    return Object.values(IMPORT_FILTERS).some(extensions => extensions.includes(ext));
}

/** `pipeline.sdf3.xml` → `pipeline.sdf3.chain` beside it: only the last extension goes, so that the SDF3 and the
 * PREESM model of one pipeline (`pipeline.pi`) do not write the same file. */
export function chainFileBeside(source: string): string {
    const ext = extname(source);
    const name = ext ? basename(source, ext) : basename(source);
    return join(dirname(source), `${name || 'imported'}.chain`);
}

/** What the output channel says: what was read and written, then each note. */
export function importLog(source: string, target: string, result: ImportResult): string[] {
    return [`  ${source} (${result.format}) -> ${target}`, ...result.notes.map(note => `  note: ${note}`)];
}

/** The notification after an import: where the model is, and whether there are notes to read. */
export function importMessage(target: string, result: ImportResult): string {
    const notes = result.notes.length;
    return `chainlab: imported as ${basename(target)}${notes ? ` (${notes} note${notes === 1 ? '' : 's'}: what was expanded or left out)` : ''}`;
}

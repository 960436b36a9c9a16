/** How the language server exports an open document: paths as the editor names them, files read from disk. */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { URI } from 'langium';
import type { ExportContext } from './ir-export.js';

export function documentExportContext(uri: URI): ExportContext {
    return {
        file: uri.scheme === 'file' ? uri.fsPath : uri.toString(),
        readFile: path => readFileSync(path, 'utf-8'),
        resolvePath: path => (uri.scheme === 'file' ? resolve(dirname(uri.fsPath), path) : path),
    };
}

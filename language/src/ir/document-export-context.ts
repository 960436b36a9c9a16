/** How the language server exports an open document: paths as the editor names them, measurement files read from disk
 * through the one reader of the CLI. */
import { dirname, resolve } from 'node:path';
import type { URI } from 'langium';
import { readMeasurementFile } from '../dsl/regular-file.js';
import type { ExportContext } from './ir-export.js';

export function documentExportContext(uri: URI): ExportContext {
    return {
        file: uri.scheme === 'file' ? uri.fsPath : uri.toString(),
        // the checks the CLI applies (regular file, size limit): a FIFO or /dev/zero must not hang the server
        readFile: path => readMeasurementFile(path),
        resolvePath: path => (uri.scheme === 'file' ? resolve(dirname(uri.fsPath), path) : path),
    };
}

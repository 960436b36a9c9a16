/** The language-side commands of the chainlab CLI: check and export. */
import type { Command } from 'commander';
import { dirname, resolve } from 'node:path';
import { exportIr, IrExportError } from '../ir/ir-export.js';
import type { IrModel } from '../ir/ir-types.js';
import { assertValidIr } from '../ir/ir-schema.js';
import { escapeControls, readableMessage } from './escape-controls.js';
import { formatDiagnostic, isError, loadFiles, type LoadedFile } from './load-documents.js';
import { readMeasurementFile } from '../dsl/regular-file.js';
import { writeOutputFile } from './model-files.js';
import { errorLine } from './error-line.js';

export interface Output {
    out(text: string): void;
    err(text: string): void;
}

/** Every line the CLI prints quotes model text somewhere: control characters are escaped (F26). */
export const processOutput: Output = {
    out: text => process.stdout.write(escapeControls(text) + '\n'),
    err: text => process.stderr.write(readableMessage(text) + '\n'),
};

/** At most this many diagnostics are printed (20 MB of random bytes made 1.1 M lines); the counts cover all. */
export const MAX_PRINTED_DIAGNOSTICS = 200;

/** Prints the diagnostics (the first MAX_PRINTED_DIAGNOSTICS); returns the number of errors. */
export function reportDiagnostics(files: readonly LoadedFile[], output: Output): number {
    let errors = 0;
    let printed = 0;
    let total = 0;
    for (const file of files) {
        const sorted = [...file.diagnostics].sort(
            (a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
        );
        for (const diagnostic of sorted) {
            total++;
            if (printed < MAX_PRINTED_DIAGNOSTICS) {
                output.err(formatDiagnostic(file.path, diagnostic));
                printed++;
            }
            if (isError(diagnostic)) errors++;
        }
    }
    if (total > printed) output.err(`... ${total - printed} more diagnostic(s) not shown`);
    return errors;
}

export async function checkCommand(paths: string[], output: Output = processOutput): Promise<number> {
    const files = await loadFiles(paths);
    const errors = reportDiagnostics(files, output);
    const warnings = files.reduce((n, f) => n + f.diagnostics.length, 0) - errors;
    output.err(`${files.length} file(s) checked: ${errors} error(s), ${warnings} warning(s)`);
    return errors > 0 ? 1 : 0;
}

/** Loads one file, refuses it if it has errors, and returns its IR. */
export async function loadIr(path: string, output: Output = processOutput): Promise<IrModel | undefined> {
    const [file] = await loadFiles([path]);
    if (reportDiagnostics([file], output) > 0) {
        output.err(errorLine(`${path}: not exported: fix the errors above first`));
        return undefined;
    }
    const modelFile = resolve(path);
    try {
        const ir = exportIr(file.document.parseResult.value, {
            file: path,
            readFile: path => readMeasurementFile(path),
            resolvePath: p => resolve(dirname(modelFile), p),
        });
        assertValidIr(ir);
        return ir;
    } catch (error) {
        if (error instanceof IrExportError) {
            const start = error.node.$cstNode?.range.start;
            output.err(`${path}:${(start?.line ?? 0) + 1}:${(start?.character ?? 0) + 1}: error: ${error.message}`);
            return undefined;
        }
        throw error;
    }
}

export async function exportCommand(
    path: string,
    options: { output?: string },
    output: Output = processOutput,
): Promise<number> {
    const ir = await loadIr(path, output);
    if (!ir) return 1;
    const text = JSON.stringify(ir, null, 2);
    if (options.output) {
        writeOutputFile(options.output, text + '\n', [path]);
        output.err(`IR written to ${options.output}`);
    } else {
        output.out(text);
    }
    return 0;
}

export function registerCheck(program: Command): void {
    program
        .command('check')
        .description('Validate .chain files; prints file:line:col: error|warning: message lines and exits 1 on errors.')
        .argument('<files...>', '.chain files')
        .action(async (files: string[]) => {
            process.exitCode = await checkCommand(files);
        });
}

/** `export --sdf3` (export-sdf3.ts, which asks the backend): main.ts passes it in, so this module needs no backend. */
export type OtherFormatExport = (
    file: string,
    options: { output?: string; json?: boolean; sdf3?: boolean; chain?: string },
) => Promise<number>;

export function registerExport(program: Command, exportSdf3: OtherFormatExport): void {
    program
        .command('export')
        .description(
            "Export a .chain file as the chainlab IR (versioned JSON, the backend's input), or a box chain as SDF3 XML.",
        )
        .argument('<file>', 'a .chain file')
        .option('--json', 'print the IR as JSON (the default)')
        .option('--sdf3', 'write a box chain as SDF3 XML (<sdf3 type="sdf">) for dataflow tools')
        .option('--chain <name>', 'with --sdf3: the chain to export (optional when the file has one)')
        .option('-o, --output <path>', 'write to a file instead of standard output')
        .action(async (file: string, options: Parameters<OtherFormatExport>[1]) => {
            const sdf3 = options.sdf3 || options.chain !== undefined;
            process.exitCode = sdf3 ? await exportSdf3(file, options) : await exportCommand(file, options);
        });
}

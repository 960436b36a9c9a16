/**
 * `chainlab export MODEL.chain --sdf3`: a box chain written as SDF3 XML by the backend (`interchange/export`), for
 * the dataflow tools that read it. What SDF3 cannot say is printed as notes.
 */
import { withBackend } from './backend-session.js';
import { loadIr, processOutput, type Output } from './commands.js';
import { writeOutputFile } from './model-files.js';
import { UsageError } from './usage-error.js';

export interface ExportOptions {
    output?: string;
    json?: boolean;
    sdf3?: boolean;
    chain?: string;
}

/** The options that go with the IR only or with SDF3 only, refused together. */
export function checkExportOptions(options: ExportOptions): void {
    if (options.sdf3 && options.json) throw new UsageError('--json and --sdf3 are two formats: choose one');
    if (options.chain !== undefined && !options.sdf3)
        throw new UsageError('--chain is for --sdf3 (the IR holds every chain)');
}

export async function exportSdf3Command(
    path: string,
    options: ExportOptions,
    output: Output = processOutput,
): Promise<number> {
    checkExportOptions(options);
    const ir = await loadIr(path, output);
    if (!ir) return 1;
    return withBackend(output, async backend => {
        const reply = await backend.request('interchange/export', {
            ir,
            format: 'sdf3',
            ...(options.chain !== undefined ? { chain: options.chain } : {}),
        });
        for (const note of reply.notes) output.err(`chainlab: note: ${note}`);
        const text = reply.text.endsWith('\n') ? reply.text : `${reply.text}\n`;
        if (options.output) {
            writeOutputFile(options.output, text, [path]);
            output.err(`SDF3 written to ${options.output}`);
        } else {
            output.out(text.slice(0, -1)); // control characters escaped, as in every line the CLI prints
        }
        return 0;
    });
}

/**
 * `chainlab import-timings MODEL.chain TIMES.csv`: measured times from another tool into the model, as one edit.
 * The backend reads the CSV (interchange/timings: per name its statistics and bins, every refusal with its row);
 * the language writes the settings (dsl/timings-edits.ts). The edited model is checked before it is written, and
 * written whole (a temporary file renamed over it) or, with --dry-run, shown as a unified diff; nothing is written
 * when anything is refused.
 */
import type { Command } from 'commander';
import { Option } from 'commander';
import { resolve } from 'node:path';
import { URI } from 'langium';
import type { Model } from '../generated/ast.js';
import {
    applyTextEdits,
    defaultTimingsTarget,
    TIMINGS_STATISTICS,
    TimingsEditError,
    timingsEdits,
    timingsNames,
    type TimingsAs,
    type TimingsStatistic,
    type TimingsTarget,
} from '../dsl/timings-edits.js';
import { BackendModelError } from '../backend-rpc/backend-client.js';
import { withBackend } from './backend-session.js';
import { processOutput, reportDiagnostics, type Output } from './commands.js';
import { errorLine } from './error-line.js';
import { chainServices, formatDiagnostic, isError, loadFiles } from './load-documents.js';
import { writeOutputFile } from './model-files.js';
import { createTwoFilesPatch } from 'diff';
import { UsageError } from './usage-error.js';

export interface ImportTimingsOptions {
    chain?: string;
    ptts?: string;
    as?: TimingsAs;
    statistic?: TimingsStatistic;
    dryRun?: boolean;
}

export async function importTimingsCommand(
    modelPath: string,
    csvPath: string,
    options: ImportTimingsOptions,
    output: Output = processOutput,
): Promise<number> {
    if (options.chain !== undefined && options.ptts !== undefined)
        throw new UsageError('name --chain or --ptts, not both');
    const [file] = await loadFiles([modelPath]);
    if (reportDiagnostics([file], output) > 0) {
        output.err(errorLine(`${modelPath}: no times imported: fix the errors above first`));
        return 1;
    }
    const model = file.document.parseResult.value;
    let target: TimingsTarget;
    let names: string[];
    try {
        target = targetOf(model, options);
        names = [...timingsNames(model, target).keys()];
    } catch (error) {
        if (error instanceof TimingsEditError) throw new UsageError(error.message);
        throw error;
    }
    const as = options.as ?? (target.kind === 'chain' ? 'cost' : 'etp');
    const statistic = options.statistic ?? 'median';
    return withBackend(output, async backend => {
        const absolute = resolve(csvPath);
        const result = await backend.request('interchange/timings', { path: absolute, names }).catch(error => {
            // the backend names the absolute path it was given: say it as the user wrote it
            if (error instanceof BackendModelError && error.message.startsWith(absolute))
                throw new BackendModelError(csvPath + error.message.slice(absolute.length), error.data);
            throw error;
        });
        let edited;
        try {
            edited = timingsEdits(file.document, target, result, as, statistic);
        } catch (error) {
            if (!(error instanceof TimingsEditError)) throw error;
            output.err(errorLine(`${csvPath}: ${error.message}`));
            return 1;
        }
        const before = file.document.textDocument.getText();
        const after = applyTextEdits(before, edited.edits);
        const problems = await errorsOf(modelPath, after);
        if (problems.length > 0) {
            for (const line of problems) output.err(line);
            output.err(errorLine(`${modelPath}: not written: the edited model would have the errors above`));
            return 1;
        }
        for (const s of edited.settings)
            output.err(`${target.kind} ${target.name}: ${s.element}: ${short(s.text)} (${s.detail})`);
        if (edited.untouched.length > 0)
            output.err(`not in ${csvPath} (left as they are): ${edited.untouched.join(', ')}`);
        if (options.dryRun) {
            // `diff -u`'s form without the separator line jsdiff puts first: what `git apply` and `patch` read
            const patch = createTwoFilesPatch(`a/${modelPath}`, `b/${modelPath}`, before, after, '', '', {
                context: 3,
            });
            output.out(patch.replace(/^=+\n/, '').trimEnd());
            output.err(`dry run: ${modelPath} not written`);
        } else {
            writeOutputFile(modelPath, after);
            output.err(`${modelPath}: ${edited.edits.length} setting(s) written`);
        }
        return 0;
    });
}

function targetOf(model: Model, options: ImportTimingsOptions): TimingsTarget {
    if (options.chain !== undefined) return { kind: 'chain', name: options.chain };
    if (options.ptts !== undefined) return { kind: 'ptts', name: options.ptts };
    return defaultTimingsTarget(model);
}

/** A pmf of 50 points is one long line: the message shows its start. */
const short = (text: string) => (text.length > 100 ? `${text.slice(0, 97)}...` : text);

/** The errors `text` would have as the model at `path` (checked in memory, beside nothing on disk). */
async function errorsOf(path: string, text: string): Promise<string[]> {
    const services = chainServices();
    const { LangiumDocuments, LangiumDocumentFactory, IndexManager } = services.shared.workspace;
    const uri = URI.file(resolve(path) + '.import-timings-check.chain');
    const document = LangiumDocumentFactory.fromString<Model>(text, uri);
    // the model itself is in the workspace too: take it out, else every name would be declared twice
    const original = URI.file(resolve(path));
    LangiumDocuments.deleteDocument(original);
    IndexManager.remove(original);
    LangiumDocuments.addDocument(document);
    try {
        await services.shared.workspace.DocumentBuilder.build([document], { validation: true });
        return (document.diagnostics ?? []).filter(isError).map(d => formatDiagnostic(path, d));
    } finally {
        LangiumDocuments.deleteDocument(uri);
        IndexManager.remove(uri);
    }
}

export function registerImportTimings(program: Command): void {
    program
        .command('import-timings')
        .description(
            'Set measured times from a CSV (one row per sample or per bin; a box/component/name/task column, the unit in a unit column or the header) as the cost or ETP of the boxes of a chain or the components of a ptts.',
        )
        .argument('<model>', 'the .chain file to edit')
        .argument('<csv>', 'the CSV of measured times')
        .option('--chain <name>', 'the chain whose boxes get the times (default: the only chain)')
        .option('--ptts <name>', 'the ptts whose components get the times')
        .addOption(
            new Option(
                '--as <what>',
                'cost (a statistic) or etp (the binned times as etp pmf); default: cost for a chain, etp for a ptts',
            ).choices(['cost', 'etp']),
        )
        .addOption(
            new Option('--statistic <s>', 'the statistic a cost takes')
                .choices([...TIMINGS_STATISTICS])
                .default('median'),
        )
        .option('--dry-run', 'print the edit as a unified diff instead of writing the model')
        .action(async (model: string, csv: string, options: ImportTimingsOptions) => {
            process.exitCode = await importTimingsCommand(model, csv, options);
        });
}

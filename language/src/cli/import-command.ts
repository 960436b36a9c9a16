/**
 * `chainlab import FILE -o MODEL.chain`: a model another tool wrote (SDF3, PREESM PiSDF with its scenario, APP4MC
 * Amalthea) becomes a .chain model. The backend reads the file; the language checks what it wrote before anything
 * is written, so that a model the importer got wrong is reported as the importer's problem, never left on disk.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { URI } from 'langium';
import type { Diagnostic } from 'vscode-languageserver';
import { SCHEMAS, type ImportParams, type ImportResult, type InterchangeFormat } from '@chainlab/contract';
import { isBox, isChain, isComponent, isPtts, type Model } from '../generated/ast.js';
import { withBackend } from './backend-session.js';
import { oneOf } from './cli-options.js';
import { processOutput, type Output } from './commands.js';
import { chainServices, formatDiagnostic, isError } from './load-documents.js';
import { writeOutputFile } from './model-files.js';
import { UsageError } from './usage-error.js';

/** The formats the backend reads: the contract's enum, defined once in rpc-interchange.schema.json. */
export const INTERCHANGE_FORMATS = (
    SCHEMAS['rpc-interchange.schema.json'] as { $defs: { InterchangeFormat: { enum: InterchangeFormat[] } } }
).$defs.InterchangeFormat.enum;

export interface ImportOptions {
    output?: string;
    format?: InterchangeFormat;
    scenario?: string;
    force?: boolean;
}

/** At most this many of the importer's own errors are printed: one is enough to report it. */
const MAX_PRINTED_ERRORS = 10;

/** The backend's params: absolute paths (it runs in its own working directory). */
export function importParams(file: string, options: ImportOptions): ImportParams {
    if (options.scenario !== undefined) {
        const preesm = options.format === 'preesm' || (options.format === undefined && extname(file) === '.pi');
        if (!preesm) throw new UsageError('--scenario is for PREESM models (a .pi file or --format preesm)');
    }
    return {
        path: resolve(file),
        ...(options.format ? { format: options.format } : {}),
        ...(options.scenario ? { scenario: resolve(options.scenario) } : {}),
    };
}

function refuseOverwrite(path: string, force: boolean | undefined): void {
    if (!force && existsSync(path)) throw new UsageError(`not writing ${path}: it exists; add --force to replace it`);
}

/** The importer's text, parsed and validated as `chainlab check` would the written file (which it will be). */
export async function checkImportedText(
    text: string,
    modelPath: string,
): Promise<{ model: Model; diagnostics: Diagnostic[] }> {
    const services = chainServices();
    const workspace = services.shared.workspace;
    const { LangiumDocuments } = workspace;
    const uri = URI.file(resolve(modelPath));
    if (LangiumDocuments.hasDocument(uri)) LangiumDocuments.deleteDocument(uri);
    const document = workspace.LangiumDocumentFactory.fromString<Model>(text, uri);
    LangiumDocuments.addDocument(document);
    try {
        await workspace.DocumentBuilder.build([document], { validation: true });
        return { model: document.parseResult.value, diagnostics: document.diagnostics ?? [] };
    } finally {
        LangiumDocuments.deleteDocument(uri);
        workspace.IndexManager.remove(uri);
    }
}

/** `3 boxes in 1 chain, 2 components in 1 ptts`: what the model holds, for the summary line. */
export function describeModel(model: Model): string {
    const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
    const elements = model.elements;
    const boxes = elements.filter(isBox).length;
    const chains = elements.filter(isChain).length;
    const ptts = elements.filter(isPtts);
    const components = ptts.reduce((n, p) => n + p.members.filter(isComponent).length, 0);
    const parts: string[] = [];
    if (boxes || chains) parts.push(`${count(boxes, 'box', 'boxes')} in ${count(chains, 'chain', 'chains')}`);
    if (ptts.length)
        parts.push(`${count(components, 'component', 'components')} in ${count(ptts.length, 'ptts', 'ptts')}`);
    return parts.join(', ') || 'no boxes or components';
}

/** The importer wrote a model the language refuses: its fault, not the user's file's. */
function reportImporterErrors(file: string, format: string, errors: Diagnostic[], output: Output): void {
    output.err(
        `chainlab: internal error: the ${format} importer turned ${file} into a model with ${errors.length} error(s); nothing was written (please report this with the file)`,
    );
    for (const error of errors.slice(0, MAX_PRINTED_ERRORS))
        output.err(`  ${formatDiagnostic(`(imported from ${basename(file)})`, error)}`);
}

export async function importCommand(
    file: string,
    options: ImportOptions,
    output: Output = processOutput,
): Promise<number> {
    const target = options.output;
    if (target !== undefined && extname(target) !== '.chain')
        throw new UsageError(`-o takes the .chain file to write, not '${target}'`);
    if (target !== undefined) refuseOverwrite(target, options.force);
    const params = importParams(file, options);
    return withBackend(output, async backend => {
        const result: ImportResult = await backend.request('interchange/import', params);
        const modelPath = target ?? join(dirname(params.path), `${basename(file, extname(file))}.chain`);
        const { model, diagnostics } = await checkImportedText(result.text, modelPath);
        const errors = diagnostics.filter(isError);
        if (errors.length > 0) {
            reportImporterErrors(file, result.format, errors, output);
            return 70;
        }
        for (const note of result.notes) output.err(`chainlab: note: ${note}`);
        const text = result.text.endsWith('\n') ? result.text : `${result.text}\n`;
        const what = describeModel(model);
        if (target === undefined) {
            output.out(text.slice(0, -1)); // control characters escaped, as in every line the CLI prints
            output.err(`chainlab: imported ${file} (${result.format}): ${what}`);
            return 0;
        }
        refuseOverwrite(target, options.force); // the backend took a while: look again just before writing
        writeOutputFile(target, text, [file, ...(options.scenario ? [options.scenario] : [])]);
        output.err(`chainlab: wrote ${target} from ${file} (${result.format}): ${what}`);
        return 0;
    });
}

const HELP = `
Formats (default: from the file's extension and root element):
  sdf3      SDF3 XML (<sdf3 type="sdf">): actors become boxes, channels connections, execution times costs
  preesm    PREESM PiSDF .pi with the timings of its .scenario (--scenario, default: the one beside it)
  amalthea  APP4MC Amalthea .amxmi (periodic subset): stimuli and tasks become ptts components

What has no .chain equivalent is refused with the element named, or expanded where that is exact; the notes
(chainlab: note: ...) say what, and the written model says it in comments.

Examples:
  chainlab import pipeline.sdf3.xml -o pipeline.chain
  chainlab import pipeline.pi --scenario timings.scenario -o pipeline.chain
  chainlab import system.amxmi > system.chain`;

export function registerImport(program: Command): void {
    program
        .command('import')
        .description('Import a model another tool wrote (SDF3, PREESM, APP4MC Amalthea) as a checked .chain model.')
        .argument('<file>', 'the model to import (.xml, .pi, .amxmi)')
        .option('-o, --output <model.chain>', 'write the model to this .chain file instead of standard output')
        .option('--format <format>', INTERCHANGE_FORMATS.join(' | '), oneOf('--format', INTERCHANGE_FORMATS))
        .option('--scenario <file.scenario>', 'PREESM: the scenario with the timings')
        .option('--force', 'replace the output file if it exists')
        .addHelpText('after', HELP)
        .action(async (file: string, options: ImportOptions) => {
            process.exitCode = await importCommand(file, options);
        });
}

/** `chainlab`: the command line of chainlab, for scripts and CI. */
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { analyzeCommand } from './analyze-command.js';
import { checkCommand, exportCommand } from './commands.js';
import { overviewCommand } from './overview-command.js';
import { UsageError } from './load-documents.js';

export function createProgram(): Command {
    const program = new Command('chainlab')
        .description('Model, plan, analyse, generate and measure soft real-time image-processing chains (.chain files).')
        .version('0.1.0')
        .showHelpAfterError('(run chainlab --help for usage)');

    program.command('check')
        .description('Validate .chain files; prints file:line:col: error|warning: message lines and exits 1 on errors.')
        .argument('<files...>', '.chain files')
        .action(async (files: string[]) => { process.exitCode = await checkCommand(files); });

    program.command('export')
        .description('Export a .chain file as the chainlab IR (versioned JSON, the backend\'s input).')
        .argument('<file>', 'a .chain file')
        .option('--json', 'print the IR as JSON (the default and only format)')
        .option('-o, --output <path>', 'write the IR to a file instead of standard output')
        .action(async (file: string, options: { output?: string }) => { process.exitCode = await exportCommand(file, options); });

    program.command('analyze')
        .description('Exact end-to-end latency distribution and loss probability of a PTTS chain (thesis chapter 5). Exit 3 when a requirement fails.')
        .argument('<file>', 'a .chain file')
        .option('--ptts <name>', 'the ptts to analyse (optional when the file has one)')
        .option('--json', 'print one JSON object (distribution, percentiles, loss, requirements, timing)')
        .option('--per-root', 'include the distribution of every latency tree (root)')
        .option('--max-trees <n>', 'refuse exact analysis above this many latency trees', (v: string) => positiveInt(v, '--max-trees'))
        .action(async (file: string, options: { ptts?: string; json?: boolean; perRoot?: boolean; maxTrees?: number }) => {
            process.exitCode = await analyzeCommand(file, options);
        });

    program.command('overview')
        .description('Check a model and run every analysis chainlab has on it, with a readable summary (what npm start runs).')
        .argument('<file>', 'a .chain file')
        .action(async (file: string) => { process.exitCode = await overviewCommand(file); });

    return program;
}

function positiveInt(value: string, option: string): number {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`${option} takes a positive integer, not '${value}'`);
    return n;
}

export async function main(argv: string[]): Promise<void> {
    const program = createProgram();
    program.exitOverride();
    try {
        await program.parseAsync(argv);
    } catch (error) {
        if (error instanceof CommanderError) {
            process.exitCode = error.exitCode === 0 ? 0 : 2;
        } else if (error instanceof UsageError) {
            process.stderr.write(`chainlab: error: ${error.message}\n`);
            process.exitCode = 1;
        } else {
            process.stderr.write(`chainlab: internal error: ${(error as Error).stack ?? error}\n`);
            process.exitCode = 70;
        }
    }
}

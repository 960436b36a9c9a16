/** `chainlab`: the command line of chainlab, for scripts and CI. */
import { Command, CommanderError } from 'commander';
import { checkCommand, exportCommand } from './commands.js';
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

    return program;
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

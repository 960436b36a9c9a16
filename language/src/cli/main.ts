/** `chainlab`: the command line of chainlab, for scripts and CI. Each command registers itself from its own module. */
import { Command, CommanderError } from 'commander';
import { registerAnalyze } from './analyze-command.js';
import { registerCheck, registerExport } from './commands.js';
import { registerDeploy } from './deploy-command.js';
import { registerExperiment } from './experiment-command.js';
import { registerImportTimings } from './import-timings-command.js';
import { exportSdf3Command } from './export-sdf3.js';
import { registerImport } from './import-command.js';
import { UsageError } from './usage-error.js';
import { readableMessage } from './escape-controls.js';
import { errorLine } from './error-line.js';
import { registerOverview } from './overview-command.js';
import { registerPlan, registerSynth } from './plan-command.js';
import { registerExplore } from './explore-command.js';
import { registerSimulate } from './ptts-commands.js';
import { registerGenerate, registerRun } from './run-command.js';
import { registerThrottleParams } from './throttle-command.js';

const REGISTRARS: Array<(program: Command) => void> = [
    registerCheck,
    program => registerExport(program, exportSdf3Command),
    registerAnalyze,
    registerSimulate,
    registerExplore,
    registerPlan,
    registerSynth,
    registerOverview,
    registerGenerate,
    registerRun,
    registerThrottleParams,
    registerDeploy,
    registerExperiment,
    registerImport,
    registerImportTimings,
];

export function createProgram(): Command {
    const program = new Command('chainlab')
        .description(
            'Model, plan, analyse, generate and measure soft real-time image-processing chains (.chain files).',
        )
        .version('0.1.0')
        .showHelpAfterError('(run chainlab --help for usage)')
        // commander quotes the argument it refuses as it is: 100,000 characters or a terminal escape (issue 17)
        .configureOutput({
            outputError: (text, write) => write(`${errorLine(readableMessage(text.trimEnd(), true))}\n`),
        })
        // before the commands are added: they copy it, so that a usage error of a command (a bad option value)
        // reaches main like one of the program (exit 2) instead of commander's process.exit(1)
        .exitOverride();
    for (const register of REGISTRARS) register(program);
    return program;
}

export async function main(argv: string[]): Promise<void> {
    // `chainlab ... | head` closes the pipe early: that is not an error.
    process.stdout.on('error', error => {
        if ((error as NodeJS.ErrnoException).code === 'EPIPE') process.exit(0);
        throw error;
    });
    const program = createProgram();
    try {
        await program.parseAsync(argv);
    } catch (error) {
        if (error instanceof CommanderError) {
            process.exitCode = error.exitCode === 0 ? 0 : 2;
        } else if (error instanceof UsageError) {
            process.stderr.write(`chainlab: error: ${readableMessage(error.message)}\n`);
            process.exitCode = 1;
        } else {
            process.stderr.write(
                `chainlab: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
            );
            process.exitCode = 70;
        }
    }
}

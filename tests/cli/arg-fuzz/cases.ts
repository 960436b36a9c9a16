/**
 * The seeded generator of `chainlab` argument vectors (issue 17: the fuzz suites grow to the CLI arguments). The
 * commands and options come from the CLI's real program object, so a new option is fuzzed as soon as it exists (and
 * must be given a value kind in VALUE_KINDS, checked by the test). Each case mixes a command, files (sample models,
 * real temporary files, directories, devices, missing paths) and options with valid and hostile values.
 */
import { isAbsolute } from 'node:path';
import type { createProgram } from '../../../language/src/cli/main.js';
import { prng } from '../../../language/test/prng.js';

/** The CLI's program object (commander's Command; its types through the CLI, which declares commander). */
type Command = ReturnType<typeof createProgram>;
type Option = Command['options'][number];

/** The seeded PRNG: a case is a function of the run seed and its index only. */
export { prng };

export type ValueKind =
    'integer' | 'duration' | 'choice' | 'scenarios' | 'name' | 'components' | 'periods' | 'output' | 'fingerprint';

/** The kind of value each option takes (by its long name); options without a value are flags. */
export const VALUE_KINDS: Record<string, ValueKind> = {
    '--iterations': 'integer',
    '--threads': 'integer',
    '--seed': 'integer',
    '--calibrate': 'integer',
    '--boxes': 'integer',
    '--chains': 'integer',
    '--samples': 'integer',
    '--max-trees': 'integer',
    '--max-operations': 'integer',
    '--step': 'duration',
    '--schedule': 'choice',
    '--memory': 'choice',
    '--objective': 'choice',
    '--pareto': 'choice',
    '--engine': 'choice',
    '--scheduler': 'choice',
    '--format': 'choice',
    '--as': 'choice',
    '--statistic': 'choice',
    '--scenario': 'scenarios',
    '--ptts': 'name',
    '--chain': 'name',
    '--target': 'name',
    '--vary': 'components',
    '--periods': 'periods',
    '--output': 'output',
    '--out': 'output',
    '--runs': 'output',
    '--replace': 'fingerprint',
};

/** Valid values of the choice options (the generator also picks hostile ones). */
const CHOICES: Record<string, string[]> = {
    '--schedule': ['simple', 'barrier', 'fixed', 'predictable', 'reduced'],
    '--memory': ['simple', 'reuse'],
    '--as': ['cost', 'etp'],
    '--statistic': ['mean', 'median', 'p90', 'p99', 'max'],
    '--objective': ['p50', 'p99', 'mean', 'deadline', 'loss'],
    '--pareto': ['p99,loss', 'p50,mean', 'mean,deadline', 'loss,loss'],
    // a LocalCluster costs ~2 s to start: mostly in-process
    '--engine': ['process', 'process', 'process', 'local'],
    // nothing listens there: the connection is refused (within the engine's 5 s connect timeout)
    '--scheduler': ['tcp://127.0.0.1:9', 'process'],
    '--format': ['sdf3', 'preesm', 'amalthea'],
};

/** Small valid integers: a valid run must stay short (the iterations of a run are measured in real time). */
const SMALL_INTEGERS: Record<string, string[]> = {
    '--iterations': ['1', '2', '3', '5', '20'],
    '--threads': ['1', '2', '3', '4'],
    '--seed': ['0', '1', '42', '4294967295'],
    '--calibrate': ['0', '1', '3'],
    '--boxes': ['1', '2', '10', '100'],
    '--chains': ['1', '2'],
    '--samples': ['1', '10', '100'],
    '--max-trees': ['1', '10', '1000', '100000'],
    '--max-operations': ['1', '1000', '100000000000'],
};

/** Values no option takes as they are: other number notations, units, controls, long strings, option look-alikes. */
export const HOSTILE: readonly string[] = [
    '',
    ' ',
    '-1',
    '-0',
    '0',
    '00000000000000000000001',
    '0x10',
    '0o7',
    '0b101',
    '1e3',
    '1E-3',
    '1.5',
    '.5',
    '+5',
    ' 5',
    '5 ',
    '1_000',
    'NaN',
    'Infinity',
    '-Infinity',
    'undefined',
    'null',
    'true',
    '[]',
    '{}',
    '__proto__',
    'constructor',
    'toString',
    '9007199254740993',
    '99999999999999999999',
    '1' + '0'.repeat(400),
    '-99999999999999999999',
    '4294967296',
    '2147483648',
    '\u0663', // ARABIC-INDIC DIGIT THREE: a digit to \d in some engines
    '\uff15', // FULLWIDTH DIGIT FIVE
    '1 ms',
    '2ms',
    '0 ns',
    '-1 ms',
    '1e30 s',
    '1e-30 s',
    '0.0000000001 ns',
    '1 parsec',
    'ms',
    '1 ms 2 ms',
    '104 days',
    '9007199254740993 ns',
    '\x1b[2J\x1b]0;pwned\x07',
    '\x1b[31mred\x1b[0m',
    'a\nb',
    'line\r\nbreak',
    '\t',
    '\x7f\x9b',
    '\u202eevil',
    '\ud800',
    'na\u0308me',
    '名前',
    '🙂',
    '%s%s%n',
    '$(id)',
    '`id`',
    "x\"; system('id'); //",
    '../../../../etc/passwd',
    '--json',
    '-h',
    '--',
    '-',
    '=',
    ',',
    ',,',
    'baseline,',
    'baseline,baseline',
    'BASELINE',
    'SHA256:',
    'SHA256:' + 'A'.repeat(43),
    'x'.repeat(300),
    'y'.repeat(100_000),
    '9'.repeat(5000),
];

/** The files a case can name: paths relative to the case folder (the worker's cwd), set up by `fuzzFiles`. */
export interface FileSpace {
    /** Sample models (copied into the case folder) with the element names each holds. */
    readonly models: ReadonlyArray<{ path: string; names: string[]; components: string[] }>;
    /** Other inputs: junk, empty, huge, directories, devices, FIFOs, missing paths, non-.chain names. */
    readonly hostileInputs: readonly string[];
    /** Where an output may go: fresh names, existing folders and files, devices, unwritable and missing places. */
    readonly outputs: readonly string[];
}

export interface FuzzCase {
    readonly index: number;
    readonly args: string[];
}

/**
 * Paths an output option may name: inside the case folder, or a device; never one that resolves outside it (the
 * fuzzer runs as whatever user runs the tests: `-o ../../etc/passwd` must never be tried for real).
 */
export function safeOutput(value: string): boolean {
    if (['/dev/null', '/dev/full', '/proc/nope/out'].includes(value)) return true;
    return !isAbsolute(value) && !value.split(/[\\/]/).includes('..') && !value.startsWith('~');
}

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)];

/** What the generator knows about a command, read from the program object. */
interface CommandShape {
    readonly name: string;
    readonly files: number; // positional arguments (file names); variadic takes 1..3
    readonly variadic: boolean;
    readonly options: readonly Option[];
}

export function commandShapes(program: Command): CommandShape[] {
    // a command with subcommands (`experiment heuristics`) is fuzzed alone and as each of them
    return program.commands.flatMap(command => [
        shapeOf(command, command.name()),
        ...command.commands.map(sub => shapeOf(sub, `${command.name()} ${sub.name()}`)),
    ]);
}

function shapeOf(command: Command, name: string): CommandShape {
    return {
        name,
        files: command.registeredArguments.length,
        variadic: command.registeredArguments.some(a => a.variadic),
        options: command.options,
    };
}

/** Every option of every command that takes a value but has no value kind (the test wants none). */
export function unknownOptions(program: Command): string[] {
    return commandShapes(program).flatMap(shape =>
        shape.options
            .filter(o => (o.required || o.optional) && !(o.long && o.long in VALUE_KINDS))
            .map(o => `${shape.name} ${o.flags}`),
    );
}

function validValue(
    random: () => number,
    option: Option,
    model: FileSpace['models'][number] | undefined,
    files: FileSpace,
): string {
    const long = option.long ?? '';
    switch (VALUE_KINDS[long]) {
        case 'integer':
            return pick(random, SMALL_INTEGERS[long] ?? ['1']);
        case 'duration':
            return pick(random, ['1 ms', '2ms', '0.5 ms', '250 us', '1 s']);
        case 'choice':
            return pick(random, CHOICES[long] ?? ['x']);
        case 'scenarios':
            return pick(random, ['baseline', 'baseline', 'baseline,congested', 'throttled', 'congested, throttled']);
        case 'name':
        case 'components':
            return model && model.names.length + model.components.length > 0
                ? pick(
                      random,
                      VALUE_KINDS[long] === 'components'
                          ? [...model.components, ...model.names]
                          : [...model.names, 'here'],
                  )
                : 'here';
        case 'periods': {
            const component = model?.components.length ? pick(random, model.components) : 'C';
            return `${component}=${pick(random, ['16.6ms,16.7ms', '10 ms', '1ms,2ms,3ms', '40.6ms'])}`;
        }
        case 'output':
            return pick(random, files.outputs);
        case 'fingerprint':
            return 'SHA256:' + 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ'.slice(0, 1 + Math.floor(random() * 43));
        default:
            return pick(random, HOSTILE);
    }
}

/** A hostile value for an option: any of HOSTILE, a path or another kind's valid value. */
function hostileValue(random: () => number, option: Option, files: FileSpace): string {
    const r = random();
    if (r < 0.7) return pick(random, HOSTILE);
    if (r < 0.8) return pick(random, files.hostileInputs);
    if (r < 0.9 && VALUE_KINDS[option.long ?? ''] === 'output') return pick(random, files.outputs);
    return pick(random, ['here', 'lab1', 'Fig52', 'XRay', 'System', 'App', 'baseline', '1 ms', '1']);
}

const UNKNOWN_OPTIONS = [
    '--bogus',
    '--iteration',
    '-x',
    '--no-json',
    '--json=1',
    '---json',
    '-',
    '--',
    '-vV',
    '--Iterations',
];
const UNKNOWN_COMMANDS = [
    'chek',
    'CHECK',
    'runn',
    '',
    ' ',
    '-',
    '--',
    '--version',
    '-V',
    '--help',
    'help',
    'help run',
    'x'.repeat(5000),
];

/** First options that keep a valid case short (a later option, valid or hostile, replaces them). */
const SHORT_RUN: Record<string, (random: () => number) => string[]> = {
    run: random => ['--iterations', pick(random, ['1', '2', '3'])],
    deploy: random => ['--iterations', pick(random, ['1', '2', '3'])],
    // 1-2 small chains planned in the backend alone: ~2 s (with --target here, 16 builds: ~30 s)
    'experiment heuristics': random => [
        ...['--chains', pick(random, ['1', '2']), '--boxes', '6', '--samples', '10'],
        ...['--scheduler', 'process', '--iterations', '1'],
    ],
};

/**
 * One case: a command (mostly real), its files (mostly sample models), 0-4 options with valid or hostile values,
 * sometimes repeated, unknown, in `--opt=value` form or missing their value. A run, deploy or experiment that would
 * pass every check is kept short by its first options (SHORT_RUN).
 */
export function generateCase(program: Command, files: FileSpace, seed: number, index: number): FuzzCase {
    const random = prng((Math.imul(seed ^ 0x9e3779b9, 31) + Math.imul(index, 0x85ebca6b)) >>> 0);
    const shapes = commandShapes(program);
    if (random() < 0.06) {
        const args = pick(random, UNKNOWN_COMMANDS).split(/(?<=^help) /);
        if (random() < 0.5) args.push(pick(random, [...files.hostileInputs, ...files.models.map(m => m.path)]));
        return { index, args };
    }
    const shape = pick(random, shapes);
    const args: string[] = shape.name.split(' ');
    const model = random() < 0.65 && files.models.length > 0 ? pick(random, files.models) : undefined;
    args.push(...(SHORT_RUN[shape.name]?.(random) ?? []));
    // positional files: the model, hostile inputs, none, or too many
    const fileCount =
        random() < 0.08 ? 0 : shape.variadic ? 1 + Math.floor(random() * 3) : shape.files + (random() < 0.08 ? 1 : 0);
    const positional: string[] = [];
    for (let i = 0; i < fileCount; i++)
        positional.push(
            i === 0 && model
                ? model.path
                : random() < 0.3 && files.models.length
                  ? pick(random, files.models).path
                  : pick(random, files.hostileInputs),
        );
    const optionCount = Math.floor(random() * 5);
    const chosen: string[][] = [];
    for (let i = 0; i < optionCount; i++) {
        const r = random();
        if (r < 0.07) {
            chosen.push([pick(random, UNKNOWN_OPTIONS)]);
            continue;
        }
        if (r < 0.12 && chosen.length > 0) {
            chosen.push([...pick(random, chosen)]); // a repeated option
            continue;
        }
        const option = pick(random, shape.options.length > 0 ? shape.options : program.options);
        const name = option.long && (random() < 0.85 || !option.short) ? option.long : option.short!;
        if (!(option.required || option.optional)) {
            chosen.push([name]);
            continue;
        }
        let value = random() < 0.55 ? validValue(random, option, model, files) : hostileValue(random, option, files);
        if (VALUE_KINDS[option.long ?? ''] === 'output' && !safeOutput(value)) value = pick(random, files.outputs);
        const form = random();
        if (form < 0.05)
            chosen.push([name]); // its value missing
        else if (form < 0.2 && name.startsWith('--')) chosen.push([`${name}=${value}`]);
        else chosen.push([name, value]);
    }
    // options before, between or after the files, as a user may write them
    const optionArgs = chosen.flat();
    const at = Math.floor(random() * 3);
    if (at === 0) args.push(...optionArgs, ...positional);
    else if (at === 1) args.push(...positional.slice(0, 1), ...optionArgs, ...positional.slice(1));
    else args.push(...positional, ...optionArgs);
    return { index, args };
}

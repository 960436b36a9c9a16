/**
 * `chainlab explore`: the design-space sweep (thesis Figure 5.14, section 5.7) on the backend's sweep engine —
 * offsets of several components and candidate periods, every point an exact analysis, the best for an objective
 * and the Pareto front of two; a CSV written as points complete, resumable; Ctrl-C keeps every finished point.
 */
import { type Command, InvalidArgumentError } from 'commander';
import { OBJECTIVES, type ExplorePoint, type ExploreResult, type Objective } from '@chainlab/contract';
import { interruptOnCtrlC, withBackend } from './backend-session.js';
import { duration, oneOf, positiveInt } from './cli-options.js';
import { verdictLines } from './explore-verdict.js';
import { progressBar } from './progress-bar.js';
import { loadIr, processOutput, type Output } from './commands.js';
import { formatMs, formatProbability, table } from './text-plot.js';
import { UsageError } from './usage-error.js';

export interface ExploreOptions {
    ptts?: string;
    vary?: string[];
    step?: number;
    periods?: Record<string, number[]>;
    objective: Objective;
    pareto?: [Objective, Objective];
    maxOperations?: number;
    engine?: 'process' | 'local';
    scheduler?: string;
    out?: string;
    resume?: boolean;
    json?: boolean;
}

/** `--vary C1,C2` and `--vary C1 C2` (both name components). */
function componentList(value: string, previous: string[] = []): string[] {
    const names = value
        .split(',')
        .map(s => s.trim())
        .filter(Boolean);
    if (names.length === 0) throw new InvalidArgumentError(`--vary names components, not '${value}'`);
    return [...previous, ...names];
}

/** `--periods C2=16.6ms,16.7ms` (repeatable, one component each): candidate periods, a dimension of the grid. */
function periodList(value: string, previous: Record<string, number[]> = {}): Record<string, number[]> {
    const match = /^\s*([A-Za-z_][\w-]*)\s*=\s*(.+)$/.exec(value);
    if (!match)
        throw new InvalidArgumentError(`--periods takes COMPONENT=PERIOD,PERIOD,... such as 'C2=16.6ms,16.7ms'`);
    const [, name, list] = match;
    if (previous[name]) throw new InvalidArgumentError(`--periods names ${name} twice`);
    const parse = duration(`--periods ${name}`);
    return { ...previous, [name]: list.split(',').map(p => parse(p.trim())) };
}

function objectivePair(value: string): [Objective, Objective] {
    const parts = value.split(',').map(s => s.trim());
    const check = oneOf('--pareto', OBJECTIVES);
    if (parts.length !== 2 || parts[0] === parts[1])
        throw new InvalidArgumentError(`--pareto takes two different objectives such as 'p99,loss', not '${value}'`);
    return [check(parts[0]), check(parts[1])];
}

function schedulerAddress(value: string): string {
    if (!/^(tcp|tls):\/\/[^\s/]+:\d+$/.test(value))
        throw new InvalidArgumentError(`--scheduler takes a Dask scheduler address tcp://HOST:PORT, not '${value}'`);
    return value;
}

function pointRows(r: ExploreResult, points: ExplorePoint[]): string[][] {
    const periods = Object.keys(r.periods_ns);
    const deadline = r.deadline_ms !== null ? `P(<= ${formatMs(r.deadline_ms)})` : 'P(deadline)';
    const rows = [[...r.vary.map(v => `${v} offset`), ...periods.map(c => `${c} period`), 'mean', 'p50', 'p99', 'max']];
    rows[0].push(deadline, 'loss');
    for (const point of points) {
        rows.push([
            ...r.vary.map(v => formatMs(point.offsets_ms[v])),
            ...periods.map(c => formatMs(point.periods_ms[c])),
            formatMs(point.mean_ms),
            formatMs(point.p50_ms),
            formatMs(point.p99_ms),
            formatMs(point.max_ms),
            point.p_deadline === undefined ? '-' : formatProbability(point.p_deadline),
            formatProbability(point.loss),
        ]);
    }
    return rows;
}

function summary(r: ExploreResult, seconds: number, output: Output): void {
    const what = [
        r.vary.length ? `offsets of ${r.vary.join(', ')}` : '',
        ...Object.entries(r.periods_ns).map(([c, ps]) => `${ps.length} periods of ${c}`),
    ].filter(Boolean);
    const engine = r.engine === 'process' ? 'in this process' : `on ${r.engine} (${r.workers} workers)`;
    const resumed = r.resumed_points ? `, ${r.resumed_points} read back from the file` : '';
    output.out(
        `${r.source}: ptts ${r.name}: ${r.done_points} of ${r.total_points} points (${what.join(' × ')}; exact, ${engine}, ${seconds.toFixed(1)} s${resumed}), objective ${r.objective}`,
    );
    output.out(
        `  cost: eq. 5.15 summed over the points ${r.cost.eq_5_15.toExponential(2)} (limit ${r.cost.limit.toExponential(0)})`,
    );
    const shown =
        r.points.length <= 40 ? r.points : r.points.filter((_, i) => i % Math.ceil(r.points.length / 40) === 0);
    for (const line of table(pointRows(r, shown))) output.out(line);
    if (shown.length < r.done_points)
        output.out(
            `  (${shown.length} of ${r.done_points} points shown; ${r.out ? r.out : '--json or --out FILE.csv'} has every one)`,
        );
    for (const line of verdictLines(r)) output.out(line);
    if (r.pareto) {
        output.out(`Pareto front of ${r.pareto.objectives.join(' and ')} (${r.pareto.points.length} points):`);
        for (const line of table(pointRows(r, r.pareto.points))) output.out(line);
    }
    if (r.out) output.out(`every point: ${r.out}`);
    if (!r.complete)
        output.err(
            `chainlab: the sweep was stopped after ${r.done_points} of ${r.total_points} points${r.out ? `; --resume continues ${r.out}` : ''}`,
        );
}

export async function exploreCommand(
    file: string,
    options: ExploreOptions,
    output: Output = processOutput,
): Promise<number> {
    const ir = await loadIr(file, output);
    if (!ir) return 1;
    return withBackend(output, async backend => {
        const started = Date.now();
        // a progress bar on a terminal (redrawn in place, also with --json: it goes to stderr); none in a pipe
        const bar = progressBar(false);
        const stopOnCtrlC = interruptOnCtrlC(backend, output);
        let r: ExploreResult;
        try {
            r = await backend.request(
                'ptts/explore',
                {
                    ir,
                    ptts: options.ptts,
                    vary: options.vary ?? [],
                    objective: options.objective,
                    ...(options.step ? { step_ns: options.step } : {}),
                    ...(options.periods ? { periods_ns: options.periods } : {}),
                    ...(options.pareto ? { pareto: options.pareto } : {}),
                    ...(options.maxOperations ? { max_operations: options.maxOperations } : {}),
                    ...(options.engine ? { engine: options.engine } : {}),
                    ...(options.scheduler ? { scheduler: options.scheduler } : {}),
                    ...(options.out ? { out: options.out, resume: options.resume === true } : {}),
                },
                bar.onProgress ? { onProgress: bar.onProgress } : {},
            );
        } finally {
            stopOnCtrlC();
            bar.end();
        }
        if (options.json) output.out(JSON.stringify(r, null, 2));
        else summary(r, (Date.now() - started) / 1000, output);
        if (options.json && !r.complete)
            output.err(`chainlab: the sweep was stopped after ${r.done_points} of ${r.total_points} points`);
        return r.complete ? 0 : 130;
    });
}

export function registerExplore(program: Command): void {
    program
        .command('explore')
        .description(
            'Sweep offsets of components and candidate periods, analyse every point exactly (on all cores, or a Dask cluster) and find the best.',
        )
        .argument('<file>', 'a .chain file')
        .option('--ptts <name>', 'the ptts to explore (optional when the file has one)')
        .option('--vary <components...>', "component(s) whose offset to sweep: 'C1,C2' or 'C1 C2'", componentList)
        .option(
            '--step <duration>',
            "offset step, e.g. '1 ms' (default: the time grid or period/20)",
            duration('--step'),
        )
        .option(
            '--periods <component=periods>',
            "candidate periods of a component, e.g. 'C2=16.6ms,16.7ms,16.67ms' (repeatable): a dimension of the grid",
            periodList,
        )
        .option('--objective <what>', OBJECTIVES.join(' | '), oneOf('--objective', OBJECTIVES), 'p99')
        .option('--pareto <a,b>', "the Pareto front of two objectives, e.g. 'p99,loss'", objectivePair)
        .option(
            '--max-operations <n>',
            "the whole sweep's cost limit: eq. 5.15 summed over the points (default 1e11)",
            positiveInt('--max-operations'),
        )
        .option(
            '--engine <where>',
            'process | local (default: in this process when short, else a LocalCluster)',
            oneOf('--engine', ['process', 'local'] as const),
        )
        .option(
            '--scheduler <address>',
            'an existing Dask scheduler tcp://HOST:PORT whose workers run the points',
            schedulerAddress,
        )
        .option('--out <file.csv>', 'write every point to this CSV as it completes (with the model hash)')
        .option('--resume', 'continue the --out file: points already in it are not recomputed')
        .option('--json', 'print one JSON object with every point')
        .action(async (file: string, options: ExploreOptions) => {
            if (!options.vary && !options.periods)
                throw new UsageError('explore needs --vary COMPONENTS or --periods COMPONENT=PERIODS (or both)');
            if (options.resume && !options.out)
                throw new UsageError('--resume continues the file of --out FILE.csv: name it');
            process.exitCode = await exploreCommand(file, options);
        });
}

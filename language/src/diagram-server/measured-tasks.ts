/**
 * The sub-boxes as they ran in the latest run of each chain (`Run on target`: the backend's deploy/run results,
 * relayed as `chainlab/deploy`), kept by the language server so that the thread lanes can draw measured bars
 * over the predicted ones (an overlay the user picks).
 */
import type { MeasuredTask, PlanResult } from '@chainlab/contract';

export interface MeasuredTasks {
    scenario: string;
    iterations: number;
    target: string;
    tasks: MeasuredTask[];
    /** The plan that ran (threads on the target's cores), when the reply has it. */
    plan?: PlanResult;
    /** The run fell behind its period (latency grew through it): its bars measure a backlog, not the plan. */
    overloaded: boolean;
}

export class MeasuredTaskStore {
    private readonly runs = new Map<string, MeasuredTasks>();

    set(uri: string, chain: string, run: MeasuredTasks): void {
        this.runs.set(`${uri}#${chain}`, run);
    }

    get(uri: string, chain: string): MeasuredTasks | undefined {
        return this.runs.get(`${uri}#${chain}`);
    }
}

type ScenarioTasks = { scenario: string; completed: number; tasks?: MeasuredTask[]; overloaded?: boolean };

/** Keeps the tasks of a `chainlab/deploy` reply's baseline (else first traced) scenario; true when kept. */
export function rememberTasks(
    store: MeasuredTaskStore,
    request: string,
    uri: string,
    params: object,
    result: unknown,
): boolean {
    if (request !== 'chainlab/deploy' || !('chain' in params) || typeof params.chain !== 'string') return false;
    const results = result as { target?: string; plan?: PlanResult; scenarios?: ScenarioTasks[] } | null;
    const traced = (results?.scenarios ?? []).filter(s => Array.isArray(s.tasks) && s.tasks.length);
    const run = traced.find(s => s.scenario === 'baseline') ?? traced[0];
    if (!run) return false;
    store.set(uri, params.chain, {
        scenario: run.scenario,
        iterations: run.tasks![0].samples,
        target: results?.target ?? '',
        tasks: run.tasks!,
        plan: results?.plan,
        overloaded: run.overloaded === true,
    });
    return true;
}

/** Whether two plans run the same sub-boxes on the same threads. */
export function sameSchedule(a: Pick<PlanResult, 'sub_boxes'>, b: Pick<PlanResult, 'sub_boxes'>): boolean {
    if (a.sub_boxes.length !== b.sub_boxes.length) return false;
    const thread = new Map(a.sub_boxes.map(s => [s.name, s.thread]));
    return b.sub_boxes.every(s => thread.get(s.name) === s.thread);
}

/**
 * Box chains: connections go from an output to an input of the same image
 * type, every input has exactly one writer, the graph is acyclic and fed by a
 * source, and the schedule fits the platform.
 */
import type { ValidationAcceptor, ValidationChecks } from 'langium';
import type { Chain, ChainAstType, Connection, CoreSet, Instance, Port } from '../../generated/ast.js';
import {
    boxInputs,
    boxKernelName,
    boxOutputs,
    chainConnections,
    chainInstances,
    chainRequirements,
    chainIterationsSetting,
    chainSchedule,
    expandCoreSet,
    platformCores,
    scheduleCores,
    scheduleThreads,
} from '../model-util.js';
import { resolvedSchedule } from '../resolved-schedule.js';
import { Codes } from './diagnostic-codes.js';

const portKey = (instance: Instance, port: Port) => `${instance.name}.${port.name}`;

function checkConnection(connection: Connection, accept: ValidationAcceptor): void {
    // After a syntax error a connection may lack its target (`a.o ->` at the end of the file).
    const from = connection.from?.port?.ref;
    const to = connection.to?.port?.ref;
    if (from && from.direction !== 'out') {
        accept('error', `'${connection.from?.$cstNode?.text}' is an input; a connection starts at an output port.`, {
            node: connection,
            property: 'from',
            data: { code: Codes.connectionDirection },
        });
    }
    if (to && to.direction !== 'in') {
        accept('error', `'${connection.to?.$cstNode?.text}' is an output; a connection ends at an input port.`, {
            node: connection,
            property: 'to',
            data: { code: Codes.connectionDirection },
        });
    }
    const fromType = from?.type?.ref;
    const toType = to?.type?.ref;
    const complete = (t: typeof fromType) =>
        t && t.width !== undefined && t.height !== undefined && t.pixel !== undefined;
    if (fromType && toType && fromType !== toType && complete(fromType) && complete(toType)) {
        const same =
            fromType.width === toType.width && fromType.height === toType.height && fromType.pixel === toType.pixel;
        if (!same) {
            const show = (t: typeof fromType) => `${t.name} (${t.width} x ${t.height} of ${t.pixel})`;
            accept('error', `Port type mismatch: ${show(fromType)} does not fit ${show(toType)}.`, {
                node: connection,
                data: { code: Codes.portTypeMismatch },
            });
        }
    }
}

function checkWriters(chain: Chain, accept: ValidationAcceptor): Map<string, Connection> {
    const writers = new Map<string, Connection>();
    for (const connection of chainConnections(chain)) {
        const instance = connection.to?.instance?.ref;
        const port = connection.to?.port?.ref;
        if (!instance || !port) continue;
        const key = portKey(instance, port);
        const earlier = writers.get(key);
        if (earlier) {
            const line = earlier.$cstNode ? ` on line ${earlier.$cstNode.range.start.line + 1}` : '';
            const message =
                earlier.from?.$cstNode?.text === connection.from?.$cstNode?.text
                    ? `The connection '${connection.$cstNode?.text}' is given twice (first${line}).`
                    : `Input '${key}' already has a writer ('${earlier.from?.$cstNode?.text}'${line}); an input takes one connection (use a dup box to fan out).`;
            accept('error', message, { node: connection, property: 'to', data: { code: Codes.twoWriters } });
        } else {
            writers.set(key, connection);
        }
    }
    return writers;
}

function checkUnconnected(chain: Chain, writers: Map<string, Connection>, accept: ValidationAcceptor): void {
    const read = new Set<string>();
    for (const connection of chainConnections(chain)) {
        const instance = connection.from?.instance?.ref;
        const port = connection.from?.port?.ref;
        if (instance && port) read.add(portKey(instance, port));
    }
    for (const instance of chainInstances(chain)) {
        const box = instance.box?.ref;
        if (!box) continue;
        for (const port of boxInputs(box).filter(p => p.name !== undefined)) {
            if (!writers.has(portKey(instance, port))) {
                accept('error', `Input '${portKey(instance, port)}' is not connected.`, {
                    node: instance,
                    property: 'name',
                    data: { code: Codes.unconnectedInput },
                });
            }
        }
        for (const port of boxOutputs(box).filter(p => p.name !== undefined)) {
            if (!read.has(portKey(instance, port))) {
                accept('warning', `Output '${portKey(instance, port)}' is not connected; its frames are discarded.`, {
                    node: instance,
                    property: 'name',
                    data: { code: Codes.unconnectedOutput },
                });
            }
        }
    }
}

/** Reports each cycle once, at the connection that closes it. */
function checkCycles(chain: Chain, accept: ValidationAcceptor): void {
    const successors = new Map<Instance, Connection[]>();
    for (const connection of chainConnections(chain)) {
        const from = connection.from?.instance?.ref;
        if (from && connection.to?.instance?.ref)
            (successors.get(from) ?? successors.set(from, []).get(from)!).push(connection);
    }
    const state = new Map<Instance, 'active' | 'done'>();
    const path: Instance[] = [];
    // Depth-first with an explicit stack: recursion overflowed the call stack on a pipeline of ~10,000 boxes.
    const frames: Array<{ instance: Instance; edges: Connection[]; next: number }> = [];
    const enter = (instance: Instance): void => {
        state.set(instance, 'active');
        path.push(instance);
        frames.push({ instance, edges: successors.get(instance) ?? [], next: 0 });
    };
    for (const start of chainInstances(chain)) {
        if (state.has(start)) continue;
        enter(start);
        while (frames.length > 0) {
            const frame = frames[frames.length - 1];
            if (frame.next < frame.edges.length) {
                const connection = frame.edges[frame.next++];
                const next = connection.to.instance.ref!;
                if (state.get(next) === 'active') {
                    const cycle = [...path.slice(path.indexOf(next)), next].map(i => i.name).join(' -> ');
                    accept('error', `Cycle without delay: ${cycle}.`, {
                        node: connection,
                        data: { code: Codes.cycle },
                    });
                } else if (!state.has(next)) {
                    enter(next);
                }
            } else {
                frames.pop();
                path.pop();
                state.set(frame.instance, 'done');
            }
        }
    }
}

/** Reports each range of a core set that names cores the platform lacks, at that range. */
export function reportCoresOutside(
    coreSet: CoreSet,
    cores: number,
    platform: string,
    accept: ValidationAcceptor,
): void {
    for (const range of coreSet.ranges) {
        const outside = expandCoreSet({ ranges: [range] } as unknown as CoreSet).filter(c => c >= cores);
        if (outside.length === 0) continue;
        const shown = outside.length > 2 ? `${outside[0]}..${outside[outside.length - 1]}` : outside.join(', ');
        accept('error', `Core(s) ${shown} do not exist on platform '${platform}' (cores 0..${cores - 1}).`, {
            node: range,
            data: { code: Codes.coreOutOfRange },
        });
    }
}

function checkSchedule(chain: Chain, accept: ValidationAcceptor): void {
    const schedule = chainSchedule(chain);
    const platform = chain.platform?.ref;
    const cores = platform ? platformCores(platform) : undefined;
    const threads = scheduleThreads(schedule);
    const coreSet = scheduleCores(schedule);
    const chosen = expandCoreSet(coreSet);
    if (cores !== undefined && coreSet) reportCoresOutside(coreSet, cores, platform!.name, accept);
    const available = coreSet ? Math.min(new Set(chosen).size, cores ?? Infinity) : cores;
    if (threads !== undefined && available !== undefined && threads > available) {
        const where =
            coreSet && new Set(chosen).size === available ? 'the chosen cores' : `platform '${platform!.name}'`;
        accept(
            'error',
            `${threads} threads exceed the ${available} core(s) of ${where}; pinned threads need a core each.`,
            {
                node: schedule!.options.find(o => o.kind === 'threads')!,
                data: { code: Codes.threadsExceedCores },
            },
        );
    }
    if (threads !== undefined && threads < 1) {
        accept('error', 'A schedule needs at least one thread.', {
            node: schedule!.options.find(o => o.kind === 'threads')!,
            data: { code: Codes.nonPositiveThreads },
        });
    }
    // A halo wider than a slice would make a sub-box depend on slices beyond its neighbours.
    const resolved = resolvedSchedule(chain);
    for (const instance of chainInstances(chain)) {
        const split = resolved.slicesOf(instance);
        if (!split || split.depends !== 'halo' || split.rows.length <= 1) continue;
        const sliceRows = split.rows.reduce((least, [start, end]) => Math.min(least, end - start), Infinity);
        if (split.halo > sliceRows) {
            const box = instance.box.ref!;
            accept(
                'error',
                `The halo of box '${box.name}' (${split.halo} rows) is larger than a slice (${split.height} rows / ${split.rows.length} threads = ${sliceRows} row(s)); use fewer threads or 'split none'.`,
                {
                    node: instance,
                    property: 'box',
                    data: { code: Codes.haloExceedsSlice },
                },
            );
        }
    }
}

export const chainChecks: ValidationChecks<ChainAstType> = {
    Connection: checkConnection,
    Chain: (chain, accept) => {
        if (chain.name === undefined) return; // a syntax error; its diagnostic says enough
        const writers = checkWriters(chain, accept);
        checkUnconnected(chain, writers, accept);
        checkCycles(chain, accept);
        checkSchedule(chain, accept);
        const instances = chainInstances(chain);
        if (instances.length === 0) {
            accept('error', `Chain '${chain.name}' has no box instances ('name: Box').`, {
                node: chain,
                property: 'name',
                data: { code: Codes.emptyChain },
            });
        } else if (instances.every(i => i.box?.ref) && !instances.some(i => boxKernelName(i.box.ref!) === 'source')) {
            // (With an unresolved box the linking error says enough: that box may be the source.)
            accept('error', `Chain '${chain.name}' has no source box; nothing feeds it.`, {
                node: chain,
                property: 'name',
                data: { code: Codes.noSource },
            });
        }
        const iterations = chainIterationsSetting(chain);
        if (iterations && !(iterations.iterations > 0)) {
            accept('error', 'A chain runs at least one iteration.', {
                node: iterations,
                property: 'iterations',
                data: { code: Codes.nonPositiveIterations },
            });
        }
        if (!chain.platform) {
            accept(
                'warning',
                `Chain '${chain.name}' names no platform ('chain ${chain.name} on P'); the planner then assumes one core per thread.`,
                {
                    node: chain,
                    property: 'name',
                    data: { code: Codes.missingPlatform },
                },
            );
        }
        for (const requirement of chainRequirements(chain)) {
            if (requirement.kind === 'loss') {
                accept('error', 'A box chain does not lose frames; loss requirements belong to a ptts.', {
                    node: requirement,
                    data: { code: Codes.requirementKind },
                });
            }
        }
    },
};

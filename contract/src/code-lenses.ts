/**
 * The CodeLens actions above each chain, ptts and target: their titles, the extension's commands they run and the
 * arguments. The language server builds its lenses from this table; the extension builds the provisional lenses it
 * shows before the server has answered from it too, so both run the same commands with the same arguments.
 */

/** The declarations that carry lenses, by their keyword. */
export type LensedKind = 'chain' | 'ptts' | 'target';

export interface LensCommand {
    title: string;
    command: string;
    /** The document's URI first, then the command's own arguments. */
    arguments: unknown[];
}

type Action = readonly [title: string, command: string, ...args: unknown[]];

/** The element's name is appended to each action's arguments; a target's title names it. */
const ACTIONS: Readonly<Record<Exclude<LensedKind, 'target'>, readonly Action[]>> = {
    chain: [
        ['Diagram', 'chainlab.openDiagram', 'chain'],
        ['Show plan', 'chainlab.openDiagram', 'plan'],
        ['Thread lanes', 'chainlab.openDiagram', 'lanes'],
        ['Generate C project', 'chainlab.generate'],
        ['Run on target', 'chainlab.run'],
        ['Calibrate and run', 'chainlab.calibrateAndRun'],
    ],
    ptts: [
        ['Diagram', 'chainlab.openDiagram', 'ptts'],
        ['Trigger timeline', 'chainlab.openDiagram', 'timeline'],
        ['Analyze latency', 'chainlab.analyze'],
        ['Explore offsets', 'chainlab.explore'],
        ['Nearby periods', 'chainlab.nearbyPeriods'],
    ],
};

/** The lens commands above the declaration `kind name` of the document at `uri`. */
export function lensCommands(kind: LensedKind, uri: string, name: string): LensCommand[] {
    // `Run on lab1`: the chain to run is asked for (undefined), the target is this one
    if (kind === 'target')
        return [{ title: `Run on ${name}`, command: 'chainlab.run', arguments: [uri, undefined, name] }];
    return ACTIONS[kind].map(([title, command, ...args]) => ({ title, command, arguments: [uri, ...args, name] }));
}
